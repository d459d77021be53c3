//! Every limit in one place, each with its unit last in its name: what a scenario, a run, a
//! file, a link and a search may hold. Everything that takes input or loops is bounded by one of
//! these; the errors that refuse more name the limit.

// A scenario.

/// The most participants one scenario lists.
pub const MAX_PARTICIPANTS: usize = 16;
/// The most steps in one client's script.
pub const MAX_STEPS: usize = 64;
/// The most resources one scenario protects (a saga's services).
pub const MAX_RESOURCES: usize = 4;
/// The most faults one scenario schedules.
pub const MAX_FAULTS: usize = 256;
/// The longest any single duration or time in a scenario may be: one day.
pub const MAX_SPAN_MS: i64 = 86_400_000;
/// The longest id, name or written value.
pub const MAX_NAME_CHARS: usize = 32;
/// The slowest a clock may run: half speed (so a clock never runs backwards between jumps).
pub const MIN_DRIFT_PPM: i64 = -500_000;
/// The fastest a clock may run: double speed.
pub const MAX_DRIFT_PPM: i64 = 1_000_000;
/// The longest one-way latency of a link: ten minutes.
pub const MAX_LATENCY_MS: u64 = 600_000;
/// The most attempts a client's acquire policy may make.
pub const MAX_ACQUIRE_ATTEMPTS: u64 = 10_000;
/// The largest time a design's setting may take: an hour.
pub const MAX_SETTING_MS: u64 = 3_600_000;
/// The largest lag, delay or tick a design's setting may take: a minute.
pub const MAX_SHORT_SETTING_MS: u64 = 60_000;

// A run.

/// The most epoch objects an S3 bucket keeps; the oldest goes first.
pub const MAX_BUCKET_EPOCHS: usize = 64;

/// The most events a scenario may allow a run.
pub const MAX_EVENTS: usize = 1_000_000;
/// The most simulated time a scenario may allow a run: a week.
pub const MAX_TIME_MS: u64 = 7 * 86_400_000;
/// The events a run may have when its scenario says nothing.
pub const DEFAULT_MAX_EVENTS: usize = 200_000;
/// The simulated time a run may take when its scenario says nothing: a day.
pub const DEFAULT_MAX_TIME_MS: u64 = 86_400_000;
/// The queue entries the simulator may pop for each event it may record (a pop that records
/// nothing discards a stale timer), beyond a fixed allowance.
pub const MAX_POPS_PER_EVENT: usize = 8;
/// The pops allowed beyond those per event.
pub const EXTRA_POPS: usize = 1_000;
/// The largest generated stress run the page offers.
pub const MAX_STRESS_EVENTS: u64 = 200_000;

// A file and a link.

/// The largest scenario file, or unpacked share link, read: 1 MiB.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The deepest nesting of arrays and objects the reader follows.
pub const MAX_JSON_DEPTH: usize = 64;
/// The longest string the reader takes.
pub const MAX_JSON_STRING_BYTES: usize = 16 * 1024;
/// The longest number the reader takes.
pub const MAX_JSON_NUMBER_CHARS: usize = 40;
/// The longest share link written or read: longer scenarios are shared as files.
pub const MAX_LINK_CHARS: usize = 8_192;
/// The most stops one course holds.
pub const MAX_COURSE_STOPS: usize = 64;
/// The longest title a course or a stop of one may have.
pub const MAX_COURSE_TITLE_CHARS: usize = 120;
/// The longest text a course carries in one field: its introduction, a stop's notes.
pub const MAX_COURSE_TEXT_CHARS: usize = 4_000;
/// The longest one stop of a course may take.
pub const MAX_STOP_MINUTES: u32 = 120;
/// The longest address kept on a device as where a visit stopped: the longest link, with the
/// route around it.
pub const MAX_KEPT_ADDRESS_CHARS: usize = MAX_LINK_CHARS + 64;
/// The most edits the editor can undo.
pub const MAX_UNDO_STEPS: usize = 200;

// A search.

/// The most faults one searched schedule adds.
pub const MAX_SEARCH_FAULTS: usize = 4;
/// The most schedules one search may be given.
pub const MAX_SEARCH_BUDGET: usize = 10_000_000;
/// The most Web Workers one search in the browser shares its schedules among.
pub const MAX_SEARCH_WORKERS: usize = 16;
/// The largest size of a searched fault, and the longest a searched run may stall.
pub const MAX_SEARCH_SPAN_MS: u64 = 3_600_000;
/// The least and most drift a search may try, either way.
pub const SEARCH_DRIFT_PPM: std::ops::RangeInclusive<u64> = 1_000..=500_000;
/// The events a searched run may have for each event of the scenario's own run…
pub const SEARCH_EVENTS_PER_BASE_EVENT: usize = 20;
/// …and at least this many.
pub const SEARCH_MIN_EVENTS: usize = 2_000;
/// How much longer than the scenario's own run a searched run may go on.
pub const SEARCH_EXTRA_TIME_MS: u64 = 120_000;
/// The most interesting times the systematic pass tries.
pub const MAX_SEARCH_TIMES: usize = 120;

// A verification.

/// The most faults one verified schedule adds.
pub const MAX_VERIFY_FAULTS: usize = 4;
/// The most single faults a verification's grid may have.
pub const MAX_VERIFY_CHOICES: usize = 1_000_000;
/// The most distinct states a verification may keep (16 bytes each, in a table up to twice as
/// large as it is full).
pub const MAX_VERIFY_STATES: usize = 64_000_000;
