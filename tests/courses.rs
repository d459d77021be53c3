//! Courses: every shipped course reads, takes the time it says, and opens each stop where its
//! story starts or at one of its key moments; a course file or link a stranger hands over is read
//! with every problem named by its field, and written back to the same course.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use lockstep::course::format::{self, parse, read, write, Asking, Open, Stop};
use lockstep::course::{built_in, Course, BUILT_IN};
use lockstep::scenario::questions::QUESTIONS;
use lockstep::scenario::{compare, json, lessons};
use support::run_lesson;

#[test]
fn every_shipped_course_reads_and_opens_each_stop_at_its_setup_or_a_key_moment() {
    assert!(built_in("class").is_some() && BUILT_IN[0].id == "class", "the class is offered first");
    for b in BUILT_IN {
        let course = b.course().unwrap();
        assert!(!course.title.is_empty() && !course.audience.is_empty() && course.intro.len() > 60, "{}", b.id);
        for (i, stop) in course.stops.iter().enumerate() {
            let Open::Lesson(id) = &stop.open else { continue };
            let ran = run_lesson(id);
            let beats: Vec<u64> = ran.words().beats().iter().map(|b| b.event as u64 + 1).collect();
            assert!(stop.step == 0 || beats.contains(&stop.step), "{} stop {i} ({id}) opens at step {}, not a key moment", b.id, stop.step);
            assert!(stop.notes.len() > 40, "{} stop {i} ({id}) has notes for the teacher", b.id);
        }
    }
}

#[test]
fn the_class_puts_the_problem_before_the_fix_and_fits_fifty_minutes() {
    let class = built_in("class").unwrap().course().unwrap();
    let lessons: Vec<&str> =
        class.stops.iter().filter_map(|s| if let Open::Lesson(id) = &s.open { Some(id.as_str()) } else { None }).collect();
    let at = |id: &str| lessons.iter().position(|l| *l == id).unwrap_or_else(|| panic!("the class has {id}"));
    assert_eq!(lessons[0], "lease-race-unfenced", "the problem first");
    assert!(at("lease-race-unfenced") < at("lease-race-fenced"));
    assert!(at("redis-del-release") < at("redis-safe-release"));
    assert!((40..=50).contains(&class.minutes()), "{} minutes", class.minutes());
}

/// The lessons a course opens, in order.
fn lessons_of(course: &Course) -> Vec<&str> {
    course.stops.iter().filter_map(|s| if let Open::Lesson(id) = &s.open { Some(id.as_str()) } else { None }).collect()
}

#[test]
fn the_interview_evening_fits_ninety_minutes_around_the_questions() {
    let evening = built_in("interview").unwrap().course().unwrap();
    assert!(evening.minutes() <= 90, "{} minutes", evening.minutes());
    let asked: Vec<&Stop> = evening.stops.iter().filter(|s| s.title.ends_with('?')).collect();
    assert!(asked.len() >= 8, "{} stops ask a question", asked.len());
    for stop in asked {
        let Open::Lesson(id) = &stop.open else { panic!("“{}” opens a lesson", stop.title) };
        let question = QUESTIONS.iter().find(|q| q.question == stop.title);
        let question = question.unwrap_or_else(|| panic!("“{}” is one of the interview questions", stop.title));
        assert!(question.lessons.contains(&id.as_str()), "{id} is one of the lessons that answer “{}”", stop.title);
    }
}

#[test]
fn the_deep_paths_cover_their_families() {
    let families: [(&str, &[&str]); 4] = [
        ("redis", &["Redis: one instance", "Redlock", "Redisson"]),
        ("consensus", &["ZooKeeper", "etcd", "Consul", "Chubby", "Hazelcast", "Kubernetes"]),
        ("databases", &["PostgreSQL", "DynamoDB lock client", "S3 conditional writes"]),
        ("alternatives", &["Alternatives to a lock"]),
    ];
    for (id, topics) in families {
        let course = built_in(id).unwrap().course().unwrap();
        let opened = lessons_of(&course);
        for topic in topics {
            let family: Vec<&str> = lessons::index().iter().filter(|e| e.topic == *topic).map(|e| e.id).collect();
            assert!(!family.is_empty(), "some lesson is on {topic}");
            for lesson in family {
                assert!(opened.contains(&lesson), "the {id} course takes in {lesson} ({topic})");
            }
        }
        assert!((45..=120).contains(&course.minutes()), "the {id} course takes {} minutes", course.minutes());
    }
}

/// A course of one lesson stop, written as a file.
fn one_stop(stop: &str) -> String {
    format!(r#"{{"version": 1, "course": "Mine", "stops": [{stop}]}}"#)
}

#[test]
fn a_course_file_names_each_problem_by_its_field() {
    let problem = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(
        problem(r#"{"version": 2, "course": "x", "stops": []}"#),
        "version: is 2; this version of Lockstep reads courses of version 1"
    );
    assert_eq!(problem(r#"{"version": 1, "course": " ", "stops": []}"#), "course: the course needs a title");
    assert_eq!(problem(r#"{"version": 1, "course": "x", "stops": []}"#), "stops: has 0 stops; a course has 1 to 64");
    assert!(problem(&one_stop(r#"{"lesson": "lease-race-unfencd"}"#))
        .starts_with("stops[0].lesson: there is no lesson named “lease-race-unfencd”; did you mean"));
    assert_eq!(problem(&one_stop(r#"{"cell": "pause"}"#)), "stops[0].cell: names a cell as schedule/design");
    assert!(problem(&one_stop(r#"{"cell": "pause/nosuch"}"#)).starts_with("stops[0].cell: "));
    assert!(problem(&one_stop(r#"{"edited": "1.AAAA"}"#)).starts_with("stops[0].edited: link: the link is cut short or damaged"));
    assert_eq!(problem(&one_stop("{}")), "stops[0]: a stop opens a `lesson`, a `cell` or an `edited` scenario, and names none");
    assert_eq!(
        problem(&one_stop(r#"{"lesson": "short-pause", "cell": "pause/lease"}"#)),
        "stops[0]: a stop opens one thing, and this names lesson and cell"
    );
    assert_eq!(problem(&one_stop(r#"{"lesson": "short-pause", "minutes": 0}"#)), "stops[0].minutes: is 0; a stop takes 1 to 120 minutes");
    assert!(problem(&one_stop(r#"{"lesson": "short-pause", "colour": 1}"#)).starts_with("stops[0].colour: unknown field `colour`"));
    let long = "x".repeat(4_001);
    assert_eq!(
        problem(&one_stop(&format!(r#"{{"lesson": "short-pause", "notes": "{long}"}}"#))),
        "stops[0].notes: is 4001 characters long; at most 4000 are taken"
    );
    let many = vec![r#"{"lesson": "short-pause"}"#; 65].join(",");
    assert_eq!(problem(&one_stop(&many)), "stops: has 65 stops; a course has 1 to 64");
}

#[test]
fn a_course_written_out_reads_back_the_same_by_file_and_by_link() {
    let cell = format!("{}/{}", compare::Schedule::ALL[0].id(), compare::rows()[0].id);
    let edited =
        lockstep::edit::link::encode(&json::parse(lockstep::scenario::lessons::embedded("short-pause").unwrap()).unwrap()).unwrap();
    let course = Course {
        title: "Mine <b>".into(),
        audience: "A team".into(),
        intro: String::new(),
        stops: vec![
            Stop {
                open: Open::Lesson("lease-race-fenced".into()),
                step: 8,
                title: String::new(),
                notes: "Ask first.".into(),
                predict: Asking::All,
                minutes: 5,
            },
            Stop {
                open: Open::Cell(cell),
                step: 0,
                title: "The table's cell".into(),
                notes: String::new(),
                predict: Asking::None,
                minutes: 3,
            },
            Stop {
                open: Open::Edited(edited),
                step: 2,
                title: String::new(),
                notes: String::new(),
                predict: Asking::Only(vec![2, 3]),
                minutes: 9,
            },
        ],
    };
    assert_eq!(read(&write(&course)).unwrap(), course);
    assert_eq!(parse(&json::write(&write(&course), Some(2))).unwrap(), course);
    assert_eq!(format::from_link(&format::to_link(&course).unwrap()).unwrap(), course);
    assert_eq!(course.minutes(), 17);
    let problem = format::from_link("2.abc").unwrap_err().to_string();
    assert_eq!(problem, "link: the link is format version 2; this version of Lockstep reads version 1");
    let problem = format::from_link("hello").unwrap_err().to_string();
    assert_eq!(problem, "link: the link's course is not in a form Lockstep writes (it should start with “1.”)");
}

#[test]
fn a_stop_asks_every_question_none_or_those_it_names() {
    let problem = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(problem(&one_stop(r#"{"lesson": "short-pause", "predict": [0]}"#)), "stops[0].predict: numbers each question from 1");
    assert_eq!(
        problem(&one_stop(r#"{"lesson": "short-pause", "predict": "yes"}"#)),
        "stops[0].predict: is true (every question), false (none), or the numbers of the questions to ask"
    );
    let asked = parse(&one_stop(r#"{"lesson": "short-pause", "predict": [1, 3]}"#)).unwrap().stops[0].predict.clone();
    assert_eq!(asked, Asking::Only(vec![1, 3]));
    assert!(asked.asks(0) && !asked.asks(1) && asked.asks(2), "numbered from 1");
    assert_eq!(
        (Asking::typed(" all "), Asking::typed("none"), Asking::typed("2, 3")),
        (Ok(Asking::All), Ok(Asking::None), Ok(Asking::Only(vec![2, 3])))
    );
    assert!(Asking::typed("two").unwrap_err().contains("not “two”"));
    assert_eq!(Asking::Only(vec![2, 3]).said(), "2, 3");
}
