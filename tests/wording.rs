//! Wording rules over every lesson and comparison cell: each design speaks its own vocabulary,
//! and no sentence carries words that misteach (a TTL where there is none, a random value where
//! there is none, lock words where there is no lock, a request told as a reply).

mod support;

use lockstep::engine::msg::{Msg, MsgKind, Rejection};
use lockstep::engine::EventKind;
use lockstep::scenario::{compare, lessons};
use support::{run_lesson, Ran};

/// Every run to check: each lesson and each comparison cell, with its design's tag.
fn runs() -> Vec<(String, &'static str, Ran)> {
    let mut all: Vec<(String, &'static str, Ran)> =
        lessons::all().iter().map(|l| (l.id().to_string(), l.scenario.lock.kind.tag(), run_lesson(l.id()))).collect();
    for row in compare::rows() {
        for s in compare::Schedule::ALL {
            let (cell, _, trace) = compare::cell(s, &row).unwrap();
            all.push((cell.id(), row.design.kind().tag(), Ran { trace, design: row.design.clone() }));
        }
    }
    all
}

/// Every piece of text a run shows: narration, text trace, arrow labels, findings.
fn texts(ran: &Ran) -> Vec<String> {
    let w = ran.words();
    let mut out = ran.narration();
    out.extend((0..ran.events.len()).map(|i| w.summary(i)));
    out.extend(ran.events.iter().filter_map(|e| match &e.kind {
        EventKind::Send { msg, to, .. } => Some(w.label(msg, *to)),
        _ => None,
    }));
    out.extend(ran.verdict.findings.iter().map(|f| w.finding(f)));
    out.push(w.metrics());
    out
}

fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        !text[..i].ends_with(|c: char| c.is_alphanumeric()) && !text[i + word.len()..].starts_with(|c: char| c.is_alphanumeric())
    })
}

#[test]
fn no_design_without_a_ttl_speaks_of_one() {
    for (id, design, ran) in runs() {
        if ["zookeeper", "postgres", "kubernetes", "consumer_group", "none"].contains(&design) {
            for t in texts(&ran) {
                assert!(!t.contains("TTL"), "{id}: {t}");
            }
        }
    }
}

#[test]
fn only_redis_designs_have_a_random_value() {
    for (id, design, ran) in runs() {
        let said = texts(&ran).into_iter().any(|t| t.contains("random value"));
        if said {
            assert!(["redis", "redlock"].contains(&design), "{id} ({design}) speaks of a random value");
        }
    }
}

#[test]
fn sessions_are_sessions_and_keys_are_keys() {
    for (id, design, ran) in runs() {
        for t in texts(&ran) {
            match design {
                // Heartbeats keep a session alive; nothing is a lease, nothing is renewed.
                "zookeeper" => assert!(!has_word(&t, "lease") && !t.contains("renew"), "{id}: {t}"),
                "postgres" => assert!(!has_word(&t, "key") && !has_word(&t, "lease") && !t.contains("expires"), "{id}: {t}"),
                "etcd" | "kubernetes" | "consumer_group" => {
                    assert!(!t.contains("token "), "{id}: a token named by its design, not `token`: {t}")
                }
                _ => {}
            }
        }
    }
}

#[test]
fn no_lock_words_where_there_is_no_lock() {
    for (id, design, ran) in runs() {
        if ["none", "consumer_group"].contains(&design) {
            for t in texts(&ran) {
                for word in ["lock", "lease", "acquire", "release", "token"] {
                    assert!(!has_word(&t, word), "{id}: `{word}` in {t:?}");
                }
            }
        }
    }
}

#[test]
fn requests_are_not_told_as_replies_nor_replies_as_requests() {
    for (id, _, ran) in runs() {
        let narration = ran.narration();
        for (i, e) in ran.events.iter().enumerate() {
            let EventKind::Send { msg, .. } = &e.kind else { continue };
            let me = ran.name(e.node);
            let s = &narration[i];
            assert!(s.starts_with(me), "{id} #{i}: {s}");
            let replying = s.contains(" answers ") || s.contains(" replies ") || s.contains(" tells ");
            match msg.kind() {
                MsgKind::Acquire | MsgKind::Request => assert!(!replying, "{id} #{i}: a request told as a reply: {s}"),
                MsgKind::Reply | MsgKind::Busy | MsgKind::Refusal | MsgKind::WakeUp => {
                    assert!(!s.contains(" asks "), "{id} #{i}: a reply told as a request: {s}")
                }
            }
        }
    }
}

#[test]
fn only_a_lower_token_makes_a_stale_writer() {
    for (id, _, ran) in runs() {
        let narration = ran.narration();
        for (i, e) in ran.events.iter().enumerate() {
            if let EventKind::WriteRejected { reason, .. } = &e.kind {
                let stale = narration[i].contains("stale writer");
                let by_token = matches!(reason, Rejection::StaleToken { .. } | Rejection::Guard { .. });
                assert_eq!(stale, by_token, "{id} #{i}: {}", narration[i]);
            }
        }
    }
}

#[test]
fn every_sentence_is_a_sentence() {
    for (id, _, ran) in runs() {
        for (i, s) in ran.narration().iter().enumerate() {
            let by_name = ran.participants.iter().any(|p| s.starts_with(&p.name));
            assert!(by_name || s.starts_with(|c: char| c.is_uppercase() || c == '“'), "{id} #{i}: {s}");
            assert!(s.ends_with('.') && !s.contains("..") && !s.contains("  "), "{id} #{i}: {s}");
            assert!(!s.contains("'s the lock") && !s.contains("lease 0") && !s.contains("(random value 0000)"), "{id} #{i}: {s}");
        }
    }
}

#[test]
fn writes_to_data_kept_in_the_lock_service_read_as_the_service_runs_them() {
    let etcd = run_lesson("etcd-txn-guard");
    let pg = run_lesson("pg-same-database");
    let label = |ran: &Ran| {
        ran.events.iter().find_map(|e| match &e.kind {
            EventKind::Send { msg: msg @ Msg::Write { .. }, to, .. } => Some(ran.words().label(msg, *to)),
            _ => None,
        })
    };
    assert_eq!(label(&etcd).as_deref(), Some("txn: if create_revision(lock key) = 8 then put \"B\""));
    assert_eq!(label(&pg).as_deref(), Some("UPDATE rows SET value = \"B\""));
}

#[test]
fn no_sentence_claims_what_the_server_did_not_do() {
    for (id, _, ran) in runs() {
        for s in texts(&ran) {
            // A blocked pg_advisory_lock sends nothing; a restart without state loses memory, not disk;
            // a key lost in a crash was lost then, not when the server came back.
            for claim in ["waits: the lock is held", "nothing was persisted", "is lost with"] {
                assert!(!s.contains(claim), "{id}: {s}");
            }
        }
        // A belief taken after its own end says so.
        for (i, e) in ran.events.iter().enumerate() {
            if let EventKind::BeliefStart { until_local: Some(t), .. } = e.kind {
                assert_eq!(t <= e.local_ms, ran.narration()[i].contains("already passed"), "{id} #{i}");
            }
        }
    }
    let separate = run_lesson("redis-incr-separate").narration();
    assert!(separate.iter().any(|s| s.starts_with("The INCR hands Client B token 1") && s.contains("knows nothing of the key")));
    assert!(!separate.iter().any(|s| s.contains("sets the key for Client B") && s.contains("INCR")), "an INCR does not set the key");
}
