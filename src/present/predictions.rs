//! The questions a run asks before it shows what they are about, each answered by the run itself:
//! whom the lock service counts as the holder when a write arrives after a fault, whose write
//! the resource will hold at the end, and what the resource does with a write (rejects it,
//! accepts it harmlessly, or accepts it and harms the data). Every answer names the events that
//! show why, for the diagram to mark.

use super::number::{capital, ms};
use super::words::Words;
use crate::engine::event::EventKind;
use crate::engine::holdings::{Change, Holdings};
use crate::engine::msg::MsgKind;
use crate::engine::{NodeId, NodeKind};

/// What a question is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asks {
    /// Whom the lock service counts as the holder at a later moment.
    Holder,
    /// Whose write the resource holds when the run ends.
    Data,
    /// What the resource does with the write about to be judged.
    Write,
}

/// A question asked before event `event` is shown, with its choices, the one the run makes
/// true, why, and the events that show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The event the run stops before to ask.
    pub event: usize,
    pub asks: Asks,
    pub question: String,
    pub choices: Vec<String>,
    /// The index in `choices` of what happens.
    pub answer: usize,
    pub reason: String,
    /// The events that show the answer, which the diagram marks once it is given.
    pub evidence: Vec<usize>,
    /// Its number in the run, from 1, in the order the run asks its questions.
    pub number: usize,
}

/// The most choices a question offers (keys 1 to 6 answer them).
pub const MAX_CHOICES: usize = 6;

/// The choices of a question on a write, in order.
pub const WRITE_CHOICES: [&str; 3] = ["Accepts it; the data is intact", "Accepts it; the data is harmed", "Rejects it"];

/// The faults after which the holder is asked about: they are what can take a lock from its holder.
fn is_fault(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::PauseStart { .. }
            | EventKind::PartitionStart { .. }
            | EventKind::ClockJump { .. }
            | EventKind::Crash
            | EventKind::LinkSlow { .. }
            | EventKind::Promoted
    )
}

/// The moment a holder question asks about.
#[derive(Clone, Copy)]
enum Moment {
    /// Another client's request for the lock reaches the lock service.
    Request,
    /// The lock passes to another client, who had asked before the fault.
    Takeover,
    /// The holder's next write reaches the resource.
    Write,
}

/// Says whether event `kind` judges a write, and whose.
fn judged(kind: &EventKind) -> Option<NodeId> {
    match kind {
        EventKind::WriteAccepted { writer, .. } | EventKind::WriteRejected { writer, .. } => Some(*writer),
        _ => None,
    }
}

impl Words<'_> {
    /// Returns the run's questions, in the order they are asked.
    pub fn predictions(&self) -> Vec<Prediction> {
        let trace = self.trace();
        let writes: Vec<usize> = trace.events.iter().enumerate().filter(|(_, e)| judged(&e.kind).is_some()).map(|(i, _)| i).collect();
        let mut out: Vec<Prediction> = self.holder_question().into_iter().collect();
        let data = self.data_question(&writes);
        for (k, &w) in writes.iter().enumerate() {
            match &data {
                Some(d) if k == 0 => out.push(d.clone()),
                _ => out.push(self.write_question(w)),
            }
        }
        out.sort_by_key(|p| p.event);
        for (i, p) in out.iter_mut().enumerate() {
            p.number = i + 1;
        }
        out
    }

    /// The question on a write judged at event `w`: rejected, accepted harmlessly, or accepted
    /// with harm; its evidence is the write and the writes its harm erased.
    fn write_question(&self, w: usize) -> Prediction {
        let trace = self.trace();
        let e = &trace.events[w];
        let (EventKind::WriteAccepted { writer, token, .. } | EventKind::WriteRejected { writer, token, .. }) = &e.kind else {
            unreachable!("a question on a write is asked of a write judged")
        };
        let harm = trace.verdict.findings.iter().find(|f| f.event == w && f.kind().is_harm());
        let answer = match (&e.kind, harm) {
            (EventKind::WriteRejected { .. }, _) => 2,
            (_, Some(_)) => 1,
            _ => 0,
        };
        let mut evidence = vec![w];
        if let Some(f) = harm {
            evidence.extend(f.found.involved());
        }
        let with = if self.has_lock() { format!(" with {}", self.token(*token)) } else { String::new() };
        let beat = self.beats().into_iter().find(|b| b.event == w);
        Prediction {
            event: w,
            asks: Asks::Write,
            question: format!("What will {} do with {}'s write{with}?", trace.name(e.node), trace.name(*writer)),
            choices: WRITE_CHOICES.iter().map(|c| c.to_string()).collect(),
            answer,
            reason: beat.map_or_else(String::new, |b| format!("{}. {}", b.title, b.why)),
            evidence,
            number: 0,
        }
    }

    /// The question on whose write the resource holds at the end, asked before the first write
    /// is judged: only where one resource judges the writes of two clients or more.
    fn data_question(&self, writes: &[usize]) -> Option<Prediction> {
        let trace = self.trace();
        let first = *writes.first()?;
        let resource = trace.events[first].node;
        if writes.iter().any(|&w| trace.events[w].node != resource) {
            return None;
        }
        let mut writers: Vec<NodeId> = Vec::new();
        for &w in writes {
            let writer = judged(&trace.events[w].kind)?;
            if !writers.contains(&writer) {
                writers.push(writer);
            }
        }
        if writers.len() < 2 || writers.len() + 1 > MAX_CHOICES {
            return None;
        }
        // The data at the end: the last write accepted and not undone.
        let mut last: Option<(usize, NodeId, u64)> = None;
        for (i, e) in trace.events.iter().enumerate().filter(|(_, e)| e.node == resource) {
            match &e.kind {
                EventKind::WriteAccepted { writer, token, .. } => last = Some((i, *writer, *token)),
                EventKind::WriteUndone { .. } => last = None,
                _ => {}
            }
        }
        let mut choices: Vec<String> = writers.iter().map(|w| format!("{}'s", trace.name(*w))).collect();
        choices.push("Nobody's: every write is refused or undone".to_string());
        let (answer, reason, evidence) = match last {
            Some((i, writer, token)) => {
                let with = if self.has_lock() { format!(" with {}", self.token(token)) } else { String::new() };
                let reason = format!(
                    "{} accepted {}'s write{with} at {}, and no write after it.",
                    trace.name(resource),
                    trace.name(writer),
                    ms(trace.events[i].at_ms)
                );
                (writers.iter().position(|w| *w == writer)?, reason, vec![i])
            }
            None => (writers.len(), format!("{} holds no client's write at the end.", trace.name(resource)), Vec::new()),
        };
        Some(Prediction {
            event: first,
            asks: Asks::Data,
            question: format!("Before any write is judged: when the run ends, whose write will {} hold?", trace.name(resource)),
            choices,
            answer,
            reason,
            evidence,
            number: 0,
        })
    }

    /// The question on whom the lock service counts as the holder after the first fault that
    /// strikes while someone holds the lock, asked just after that fault: when another client's
    /// request for the lock reaches it (a paused holder's lease may have run out by then), or,
    /// if no request comes, when the holder's next write arrives. Its evidence is every change
    /// of holder in between.
    fn holder_question(&self) -> Option<Prediction> {
        let trace = self.trace();
        if !self.has_lock() {
            return None;
        }
        let clients: Vec<NodeId> =
            trace.participants.iter().enumerate().filter(|(_, p)| p.role == NodeKind::Client).map(|(i, _)| NodeId(i)).collect();
        if clients.len() < 2 || clients.len() + 2 > MAX_CHOICES {
            return None;
        }
        let mut holdings = Holdings::new(trace.quorum);
        let mut holders: Vec<NodeId> = Vec::new();
        let mut fault: Option<(usize, Vec<NodeId>)> = None;
        let mut changes: Vec<(usize, Change)> = Vec::new();
        // The moment asked about, once it has come: the event, and whether it is a request.
        let mut moment: Option<(usize, bool)> = None;
        for (i, e) in trace.events.iter().enumerate() {
            // The lock service's answer to a request comes in the same millisecond at the same node.
            if let Some((m, true)) = moment {
                let at = &trace.events[m];
                if e.at_ms != at.at_ms || e.node != at.node {
                    return Some(self.holder_at(fault?.0, m, Moment::Request, &clients, &holders, &changes));
                }
            }
            let mut took_over = false;
            for change in holdings.apply(e) {
                match change {
                    Change::Gained { holder, .. } => {
                        took_over |= fault.as_ref().is_some_and(|(_, at_fault)| !at_fault.contains(&holder));
                        holders.push(holder);
                    }
                    Change::Lost { holder, .. } => holders.retain(|h| *h != holder),
                }
                if fault.is_some() {
                    changes.push((i, change));
                }
            }
            // A takeover with no request after the fault (a waiter queued before it) is the moment.
            if let (Some((f, _)), None, true) = (&fault, moment, took_over) {
                return Some(self.holder_at(*f, i, Moment::Takeover, &clients, &holders, &changes));
            }
            match (&fault, moment) {
                (None, _) if is_fault(&e.kind) && !holders.is_empty() && i + 1 < trace.events.len() => fault = Some((i, holders.clone())),
                (Some((_, at_fault)), None) => match &e.kind {
                    EventKind::Deliver { from, msg, .. }
                        if msg.kind() == MsgKind::Acquire && clients.contains(from) && !at_fault.contains(from) =>
                    {
                        moment = Some((i, true));
                    }
                    _ if judged(&e.kind).is_some_and(|w| at_fault.contains(&w)) => {
                        return Some(self.holder_at(fault.as_ref()?.0, i, Moment::Write, &clients, &holders, &changes));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        match (fault, moment) {
            (Some((f, _)), Some((m, true))) => Some(self.holder_at(f, m, Moment::Request, &clients, &holders, &changes)),
            _ => None,
        }
    }

    /// Tells the changes of holder since a fault, one clause per client: one that took the lock
    /// and let it go again is told as holding it from one time to the other.
    fn changes_told(&self, changes: &[(usize, Change)]) -> Vec<String> {
        let trace = self.trace();
        let at = |i: usize| ms(trace.events[i].at_ms);
        let mut told: Vec<(NodeId, String)> = Vec::new();
        for (k, (i, change)) in changes.iter().enumerate() {
            match change {
                Change::Gained { holder, token } => {
                    let until =
                        changes[k + 1..].iter().find_map(|(j, c)| matches!(c, Change::Lost { holder: h, .. } if h == holder).then_some(*j));
                    let clause = match until {
                        Some(j) => format!("{} held {} from {} to {}", trace.name(*holder), self.held(*token), at(*i), at(j)),
                        None => format!("{} took {} at {}", trace.name(*holder), self.held(*token), at(*i)),
                    };
                    told.push((*holder, clause));
                }
                Change::Lost { holder, token } if !told.iter().any(|(h, _)| h == holder) => {
                    told.push((*holder, format!("{} lost {} at {}", trace.name(*holder), self.held(*token), at(*i))));
                }
                Change::Lost { .. } => {}
            }
        }
        told.into_iter().map(|(_, clause)| clause).collect()
    }

    /// The holder question asked after fault `f` about the moment of event `m`, when `holders`
    /// hold the lock and `changes` happened since the fault.
    fn holder_at(
        &self,
        f: usize,
        m: usize,
        moment: Moment,
        clients: &[NodeId],
        holders: &[NodeId],
        changes: &[(usize, Change)],
    ) -> Prediction {
        let trace = self.trace();
        let e = &trace.events[m];
        let held = self.vocabulary().held();
        let when = match (&e.kind, moment) {
            (EventKind::Deliver { from, .. }, Moment::Request) => {
                format!("When {}'s request for {held} reaches {} at {}", trace.name(*from), trace.name(e.node), ms(e.at_ms))
            }
            (_, Moment::Write) => {
                format!("When {}'s write reaches {} at {}", judged(&e.kind).map_or("", |w| trace.name(w)), trace.name(e.node), ms(e.at_ms))
            }
            _ => format!("At {}", ms(e.at_ms)),
        };
        let mut choices: Vec<String> = clients.iter().map(|c| trace.name(*c).to_string()).collect();
        choices.push("Two clients at once".to_string());
        choices.push("Nobody".to_string());
        let answer = match holders {
            [] => clients.len() + 1,
            [one] => clients.iter().position(|c| c == one).unwrap_or(clients.len() + 1),
            _ => clients.len(),
        };
        let told = self.changes_told(changes);
        let since = if told.is_empty() { "Nothing changed hands since the fault".to_string() } else { capital(&told.join("; ")) };
        let counted = match holders {
            [] => "nobody".to_string(),
            [one] => trace.name(*one).to_string(),
            _ => "two clients at once".to_string(),
        };
        let reason = format!("{since}. At that moment the lock service counts {counted}.");
        Prediction {
            event: f + 1,
            asks: Asks::Holder,
            question: format!("{when}, whom will the lock service count as holding {held}?"),
            choices,
            answer,
            reason,
            evidence: changes.iter().map(|(i, _)| *i).collect(),
            number: 0,
        }
    }
}
