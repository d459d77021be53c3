//! The fuzzer: a seeded, deterministic harness that feeds mutated lessons, hostile scenarios and
//! random bytes through every stage from bytes to pixels (see `check.rs`), and fails on a panic,
//! an input that takes too long, or malformed output.
//!
//! `cargo test --test fuzz` runs a quick pass of 10,000 inputs (part of the test command);
//! `./scripts/fuzz` runs a million and saves failing inputs. Options, after `--`:
//! `--runs N`, `--seed S`, `--save DIR` (write failing inputs there), and `--replay FILE…`.
//! Inputs in `tests/fuzz/regressions/` (once-failing inputs, kept) are replayed on every run.

#[cfg(not(target_arch = "wasm32"))]
mod check;
#[cfg(not(target_arch = "wasm32"))]
mod mutate;
#[cfg(not(target_arch = "wasm32"))]
mod rng;

/// The browser has no use for the fuzzer; this target is empty there.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    harness::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod harness {
    use super::check::{pipeline, Reached};
    use super::mutate::mutate;
    use super::rng::Rng;
    use lockstep::scenario::lessons;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    /// The longest one input may take, with room for a slow machine and a debug build.
    const TIME_PER_INPUT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 60 } else { 10 });

    struct Options {
        runs: u64,
        seed: u64,
        save: Option<PathBuf>,
        replay: Vec<PathBuf>,
    }

    fn options() -> Result<Options, String> {
        let mut o = Options { runs: 10_000, seed: 1, save: None, replay: Vec::new() };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match arg.as_str() {
                "--runs" => o.runs = value("--runs")?.parse().map_err(|_| "--runs must be a whole number")?,
                "--seed" => o.seed = value("--seed")?.parse().map_err(|_| "--seed must be a whole number")?,
                "--save" => o.save = Some(value("--save")?.into()),
                "--replay" => o.replay.extend(args.by_ref().map(PathBuf::from)),
                // `cargo test` passes its own flags and filters to every test target.
                _ => {}
            }
        }
        Ok(o)
    }

    fn regressions() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/regressions");
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
        files.sort();
        files
    }

    /// The seed corpus: every lesson and every hostile scenario.
    fn corpus() -> Vec<String> {
        let mut inputs: Vec<String> = lessons::all().iter().map(|l| l.source.to_string()).collect();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
        let mut hostile: Vec<PathBuf> =
            std::fs::read_dir(dir).expect("tests/hostile exists").map(|e| e.expect("readable").path()).collect();
        hostile.sort();
        inputs.extend(hostile.iter().map(|p| std::fs::read_to_string(p).expect("readable")));
        inputs
    }

    /// Runs one input, catching a panic; `Err` describes the failure.
    fn try_one(bytes: &[u8]) -> Result<(Reached, Duration), String> {
        let start = Instant::now();
        let result = std::panic::catch_unwind(|| pipeline(bytes));
        let took = start.elapsed();
        let reached = match result {
            Ok(Ok(reached)) => reached,
            Ok(Err(malformed)) => return Err(malformed),
            Err(panic) => {
                let text = panic.downcast_ref::<String>().cloned().or(panic.downcast_ref::<&str>().map(|s| s.to_string()));
                return Err(format!("panic: {}", text.unwrap_or_default()));
            }
        };
        if took > TIME_PER_INPUT {
            return Err(format!("took {took:?}, over {TIME_PER_INPUT:?}"));
        }
        Ok((reached, took))
    }

    pub fn main() {
        let o = options().unwrap_or_else(|e| {
            eprintln!("fuzz: {e}");
            std::process::exit(2)
        });
        // Panics are caught and reported per input; keep their default output quiet.
        std::panic::set_hook(Box::new(|_| {}));
        let mut failures: Vec<(String, Vec<u8>, String)> = Vec::new();
        for path in regressions().into_iter().chain(o.replay.iter().cloned()) {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if let Err(why) = try_one(&bytes) {
                failures.push((path.display().to_string(), bytes, why));
            }
        }
        let corpus = corpus();
        let mut rng = Rng::new(o.seed);
        let mut reached = [0u64; 3];
        let mut slowest = (Duration::ZERO, 0);
        let start = Instant::now();
        for run in 0..o.runs {
            let input = rng.pick(&corpus).clone();
            let other = rng.pick(&corpus).clone();
            let bytes = mutate(&mut rng, &input, &other);
            match try_one(&bytes) {
                Ok((r, took)) => {
                    reached[r as usize] += 1;
                    if took > slowest.0 {
                        slowest = (took, run);
                    }
                }
                Err(why) => failures.push((format!("seed {} input {run}", o.seed), bytes, why)),
            }
            if (run + 1) % 100_000 == 0 {
                println!("fuzz: {} inputs, {:.0?}, {} failures so far", run + 1, start.elapsed(), failures.len());
            }
        }
        let [refused, stopped, drawn] = reached;
        println!(
            "fuzz: {} inputs from seed {} in {:.1?}: {refused} refused, {stopped} stopped at a limit, {drawn} drawn; slowest {:.1?} (input {}); {} failures",
            o.runs,
            o.seed,
            start.elapsed(),
            slowest.0,
            slowest.1,
            failures.len()
        );
        for (i, (name, bytes, why)) in failures.iter().enumerate() {
            println!("FAIL {name}: {why}");
            if let Some(dir) = &o.save {
                std::fs::create_dir_all(dir).expect("the save directory can be made");
                let path = dir.join(format!("failure-{}-{i}.json", o.seed));
                std::fs::write(&path, bytes).expect("the failing input can be saved");
                println!("     saved to {}", path.display());
            }
        }
        // A pass that drew nothing would test nothing past the reader.
        if o.runs >= 1_000 && (drawn < o.runs / 20 || refused < o.runs / 20) {
            println!("fuzz: too few inputs reached the end ({drawn}) or were refused ({refused}): the mutations are off");
            std::process::exit(1);
        }
        std::process::exit(i32::from(!failures.is_empty()));
    }
}
