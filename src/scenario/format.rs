//! The scenario file format, version 1: what a user writes, as `decode` reads it.
//!
//! Unknown fields are errors. Times that must not be negative are read as signed numbers so that
//! validation can say so plainly instead of failing to parse.

use crate::design::{Design, Guarantees, Kind, Values};
pub use crate::engine::fault::Fault;
use crate::engine::spec::{AcquirePolicy, Guard, Latency, RenewPolicy, ResourceMode, Step};
use std::rc::Rc;

/// A whole scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub version: u32,
    pub id: String,
    pub title: String,
    /// The lesson group it belongs to in the picker.
    pub topic: String,
    /// A short introduction shown before the first step.
    pub intro: String,
    /// What the run is meant to show; checked by the tests for every lesson.
    pub takeaway: String,
    /// What the lock in this scenario promises, shown beside the diagram.
    pub guarantees: Option<Guarantees>,
    pub seed: u64,
    pub lock: LockChoice,
    /// Diagram order, left to right.
    pub participants: Vec<Participant>,
    pub network: Network,
    pub faults: Vec<Fault<String>>,
    pub limits: Limits,
}

/// The lock design a scenario chose, its parameter values, and the design built from them.
#[derive(Clone)]
pub struct LockChoice {
    pub kind: &'static dyn Kind,
    pub values: Values,
    pub design: Rc<dyn Design>,
}

impl LockChoice {
    /// Builds the design `kind` from `values`, checking how they fit together.
    pub fn new(kind: &'static dyn Kind, values: Values) -> Result<Self, crate::error::ScenarioError> {
        let design = kind.build(&values)?;
        Ok(LockChoice { kind, values, design })
    }
}

/// Two choices are the same when they name one design with the same values.
impl PartialEq for LockChoice {
    fn eq(&self, other: &Self) -> bool {
        self.kind.tag() == other.kind.tag() && self.values == other.values
    }
}

impl std::fmt::Debug for LockChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LockChoice").field("design", &self.kind.tag()).field("values", &self.values).finish()
    }
}

impl Scenario {
    /// Returns what the lock promises: the scenario's own words, or the design's.
    pub fn guarantees(&self) -> Guarantees {
        self.guarantees.clone().unwrap_or_else(|| self.lock.design.guarantees())
    }

    /// Returns what guards the data in this set-up.
    pub fn guard(&self) -> Guard {
        let design = &*self.lock.design;
        if design.data_in_service() {
            return Guard::Store;
        }
        let mode = self.participants.iter().find_map(|p| match p {
            Participant::Resource { mode, .. } => Some(*mode),
            _ => None,
        });
        match mode {
            Some(ResourceMode::Fenced) if design.token(1).is_some() => Guard::Token,
            Some(ResourceMode::Fenced) => Guard::NoToken,
            Some(ResourceMode::Conditional) => Guard::Version,
            Some(ResourceMode::Deduplicated | ResourceMode::Unique) => Guard::Itself,
            Some(ResourceMode::Unfenced) | None => Guard::Nothing,
        }
    }
}

/// One participant, tagged by its role.
#[derive(Clone, Debug, PartialEq)]
pub enum Participant {
    Client {
        id: String,
        name: String,
        clock: ClockSpec,
        start_ms: i64,
        script: Vec<Step>,
        acquire: AcquirePolicy,
        renew: Option<RenewPolicy>,
    },
    LockService {
        id: String,
        name: String,
        clock: ClockSpec,
    },
    Resource {
        id: String,
        name: String,
        clock: ClockSpec,
        mode: ResourceMode,
    },
}

impl Participant {
    /// Returns the short id used in links and faults.
    pub fn id(&self) -> &str {
        match self {
            Participant::Client { id, .. } | Participant::LockService { id, .. } | Participant::Resource { id, .. } => id,
        }
    }

    /// Returns the display name.
    pub fn name(&self) -> &str {
        match self {
            Participant::Client { name, .. } | Participant::LockService { name, .. } | Participant::Resource { name, .. } => name,
        }
    }

    /// Returns the clock settings.
    pub fn clock(&self) -> &ClockSpec {
        match self {
            Participant::Client { clock, .. } | Participant::LockService { clock, .. } | Participant::Resource { clock, .. } => clock,
        }
    }
}

/// A node's clock error; jumps are faults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockSpec {
    pub offset_ms: i64,
    pub drift_ppm: i64,
}

/// Default link behaviour and per-link overrides.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub latency_ms: Latency,
    pub loss: Probability,
    pub links: Vec<Link>,
}

impl Default for Network {
    fn default() -> Self {
        Network { latency_ms: Latency { min_ms: 5, max_ms: 5 }, loss: Probability(0.0), links: Vec::new() }
    }
}

/// A probability between 0 and 1, checked where it is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probability(pub f64);

impl Probability {
    /// Returns the shortest decimal (at most 15 places) that reads back as this probability;
    /// integer arithmetic, so the page carries no float formatting.
    pub fn text(self) -> String {
        let mut text = String::new();
        for places in 0..=15 {
            let scale = 10u64.pow(places);
            let units = (self.0.clamp(0.0, 1.0) * scale as f64).round() as u64;
            text = match places {
                0 => units.to_string(),
                _ => format!("{}.{:0width$}", units / scale, units % scale, width = places as usize),
            };
            if decimal(&text) == Some(self.0) {
                break;
            }
        }
        text
    }
}

/// Powers of ten that a double holds exactly.
const POW10: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// Reads a JSON number with at most 15 significant digits as a double (`None` for more digits):
/// correctly rounded when its scale is within 10^±22, as every probability written by hand is;
/// smaller numbers come out close to their value, larger ones as infinity. (The standard parser
/// would add more code to the page than the rest of the reader.)
pub(super) fn decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.len() > 15 {
        return None;
    }
    let mantissa = if significant.is_empty() { 0 } else { significant.parse::<u64>().ok()? };
    let scale = exponent.checked_sub(i32::try_from(fraction.len()).ok()?)? + i32::try_from(digits.len() - significant.len()).ok()?;
    let magnitude = match scale {
        _ if mantissa == 0 => 0.0,
        23.. => f64::INFINITY,
        0.. => mantissa as f64 * POW10[scale as usize],
        _ => {
            let (mut value, mut left) = (mantissa as f64, scale.unsigned_abs() as usize);
            // Stops once the value underflows to zero, after at most 15 steps.
            while left > 0 && value > 0.0 {
                let step = left.min(22);
                value /= POW10[step];
                left -= step;
            }
            value
        }
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// An override for one directed link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub from: String,
    pub to: String,
    pub latency_ms: Option<Latency>,
    pub loss: Option<Probability>,
}

/// Optional tighter bounds on the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_events: u64,
    pub max_time_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        let d = crate::engine::spec::RunLimits::default();
        Limits { max_events: d.max_events as u64, max_time_ms: d.max_time_ms.as_ms() }
    }
}
