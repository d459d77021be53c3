//! The interview drill: each interview question in turn, through the lessons that answer it,
//! with the learner predicting each write's outcome; the question's answer is shown after its
//! last lesson, and the score is kept. Plain state, tested natively; the page drives it.

use crate::scenario::questions::{Question, QUESTIONS};

/// Where a drill stands and how it has gone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drill {
    /// The question, by its place in [`QUESTIONS`]; past the last when the drill is over.
    pub question: usize,
    /// The lesson of the question, by its place in the question's list.
    pub lesson: usize,
    /// Predictions made during the drill, and how many were right.
    pub right: u32,
    pub answered: u32,
}

impl Drill {
    /// Returns the question on now, unless the drill is over.
    pub fn current(&self) -> Option<&'static Question> {
        QUESTIONS.get(self.question)
    }

    /// Returns the lesson to open now, unless the drill is over.
    pub fn lesson_id(&self) -> Option<&'static str> {
        self.current().and_then(|q| q.lessons.get(self.lesson)).copied()
    }

    /// Says whether the lesson on now is its question's last, after which the answer is shown.
    pub fn last_of_question(&self) -> bool {
        self.current().is_some_and(|q| self.lesson + 1 >= q.lessons.len())
    }

    /// Returns the drill moved on: to the question's next lesson, or the next question's first.
    pub fn next(self) -> Drill {
        match self.current() {
            Some(q) if self.lesson + 1 < q.lessons.len() => Drill { lesson: self.lesson + 1, ..self },
            Some(_) => Drill { question: self.question + 1, lesson: 0, ..self },
            None => self,
        }
    }

    /// Returns the drill with one more prediction counted.
    pub fn scored(self, right: bool) -> Drill {
        Drill { right: self.right + u32::from(right), answered: self.answered + 1, ..self }
    }

    /// Says whether every question has been through.
    pub fn over(&self) -> bool {
        self.current().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_every_lesson_of_every_question_in_order_then_ends() {
        let mut d = Drill::default();
        let mut seen = Vec::new();
        while let Some(id) = d.lesson_id() {
            seen.push((d.question, id, d.last_of_question()));
            d = d.next();
        }
        let expected: Vec<_> = QUESTIONS
            .iter()
            .enumerate()
            .flat_map(|(q, question)| question.lessons.iter().enumerate().map(move |(i, id)| (q, *id, i + 1 == question.lessons.len())))
            .collect();
        assert_eq!(seen, expected);
        assert!(d.over() && d.next() == d, "a finished drill stays finished");
    }

    #[test]
    fn keeps_the_score() {
        let d = Drill::default().scored(true).scored(false).scored(true);
        assert_eq!((d.right, d.answered), (2, 3));
        assert_eq!(d.next().right, 2, "moving on keeps the score");
    }
}
