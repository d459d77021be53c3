//! The fuzzer: a seeded, deterministic harness that feeds mutated lessons, hostile scenarios,
//! random bytes and damaged share links through every stage from bytes to pixels (see
//! `check.rs`), and fails on a panic, an input that takes too long, or malformed output. A failing
//! input is shrunk (bytes cut away while it still fails) before it is reported and saved.
//!
//! `cargo test --test fuzz` runs a quick pass of 10,000 inputs (part of the test command);
//! `./scripts/fuzz` runs a million and `./scripts/fuzz --long` ten million, saving failing
//! inputs. Options, after `--`: `--runs N`, `--seed S`, `--save DIR` (write failing inputs
//! there), and `--replay FILE…`. Inputs in `tests/fuzz/regressions/` (once-failing inputs, kept:
//! `*.json` scenario text, `*.link` a link) are replayed on every run.

#[cfg(not(target_arch = "wasm32"))]
mod check;
#[cfg(not(target_arch = "wasm32"))]
mod links;
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
    use super::check::{link_pipeline, pipeline, Reached};
    use super::links::mutate_link;
    use super::mutate::mutate;
    use super::rng::Rng;
    use lockstep::edit::link;
    use lockstep::scenario::{json, lessons};
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    /// The longest one input may take, with room for a slow machine and a debug build.
    const TIME_PER_INPUT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 60 } else { 10 });
    /// An input slower than this is counted, not failed.
    const SLOW: Duration = Duration::from_secs(1);
    /// The most runs spent shrinking one failing input.
    const SHRINK_RUNS: usize = 2_000;

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

    /// One input: scenario text as a file gives it, or a share link.
    #[derive(Clone)]
    enum Input {
        Scenario(Vec<u8>),
        Link(String),
    }

    impl Input {
        /// Reads a saved input: `*.link` is a link, anything else scenario text.
        fn read(path: &Path) -> Input {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            match path.extension().and_then(|e| e.to_str()) {
                Some("link") => Input::Link(String::from_utf8_lossy(&bytes).trim().to_string()),
                _ => Input::Scenario(bytes),
            }
        }

        fn bytes(&self) -> &[u8] {
            match self {
                Input::Scenario(b) => b,
                Input::Link(l) => l.as_bytes(),
            }
        }

        /// The same kind of input with other bytes.
        fn with(&self, bytes: Vec<u8>) -> Input {
            match self {
                Input::Scenario(_) => Input::Scenario(bytes),
                Input::Link(_) => Input::Link(String::from_utf8_lossy(&bytes).into_owned()),
            }
        }

        fn path(&self) -> usize {
            usize::from(matches!(self, Input::Link(_)))
        }

        fn extension(&self) -> &'static str {
            ["json", "link"][self.path()]
        }
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

    /// Every lesson as a share link.
    fn links() -> Vec<String> {
        lessons::all()
            .iter()
            .map(|l| link::encode(&json::parse(l.source).expect("a lesson parses")).expect("a lesson fits a link"))
            .collect()
    }

    /// Runs one input, catching a panic; `Err` describes the failure.
    fn try_one(input: &Input) -> Result<(Reached, Duration), String> {
        let start = Instant::now();
        let result = std::panic::catch_unwind(|| match input {
            Input::Scenario(bytes) => pipeline(bytes),
            Input::Link(text) => link_pipeline(text),
        });
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

    /// Cuts bytes away from a failing input, halving the cut when nothing more can go, for as
    /// long as it still fails, within [`SHRINK_RUNS`] runs.
    fn shrink(input: &Input) -> Input {
        let mut best = input.bytes().to_vec();
        let mut cut = best.len() / 2;
        let mut runs = 0;
        while cut > 0 && runs < SHRINK_RUNS {
            let mut at = 0;
            while at < best.len() && runs < SHRINK_RUNS {
                let mut smaller = best.clone();
                smaller.drain(at..(at + cut).min(best.len()));
                runs += 1;
                if try_one(&input.with(smaller.clone())).is_err() {
                    best = smaller;
                } else {
                    at += cut;
                }
            }
            cut /= 2;
        }
        input.with(best)
    }

    /// The process's peak resident memory, in MiB, as Linux counts it.
    fn peak_mib() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let kb: u64 = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches(" kB").trim().parse().ok()?;
        Some(kb / 1024)
    }

    pub fn main() {
        let o = options().unwrap_or_else(|e| {
            eprintln!("fuzz: {e}");
            std::process::exit(2)
        });
        // Panics are caught and reported per input; keep their default output quiet.
        std::panic::set_hook(Box::new(|_| {}));
        let mut failures: Vec<(String, Input, String)> = Vec::new();
        for path in regressions().into_iter().chain(o.replay.iter().cloned()) {
            let input = Input::read(&path);
            if let Err(why) = try_one(&input) {
                failures.push((path.display().to_string(), input, why));
            }
        }
        let (corpus, links) = (corpus(), links());
        let mut rng = Rng::new(o.seed);
        // By path (scenario text, link): inputs refused, stopped at a limit, drawn; and slow ones.
        let mut reached = [[0u64; 3]; 2];
        let mut slow = [0u64; 2];
        let mut slowest = (Duration::ZERO, 0);
        let start = Instant::now();
        for run in 0..o.runs {
            let (one, other) = (rng.pick(&corpus).clone(), rng.pick(&corpus).clone());
            let text = mutate(&mut rng, &one, &other);
            let lesson = rng.pick(&links).clone();
            // One input in four is a link: a damaged lesson link, or a mutated scenario as a link.
            let input = match rng.below(8) {
                0 => Input::Link(mutate_link(&mut rng, &lesson)),
                1 => match std::str::from_utf8(&text).ok().and_then(|t| json::parse(t).ok()).and_then(|d| link::encode(&d).ok()) {
                    Some(l) => Input::Link(l),
                    None => Input::Link(mutate_link(&mut rng, &lesson)),
                },
                _ => Input::Scenario(text),
            };
            match try_one(&input) {
                Ok((r, took)) => {
                    reached[input.path()][r as usize] += 1;
                    slow[input.path()] += u64::from(took > SLOW);
                    if took > slowest.0 {
                        slowest = (took, run);
                    }
                }
                Err(why) => failures.push((format!("seed {} input {run}", o.seed), input, why)),
            }
            if (run + 1) % 100_000 == 0 {
                println!("fuzz: {} inputs, {:.0?}, {} failures so far", run + 1, start.elapsed(), failures.len());
            }
        }
        println!(
            "fuzz: {} inputs from seed {} in {:.1?}; slowest {:.1?} (input {})",
            o.runs,
            o.seed,
            start.elapsed(),
            slowest.0,
            slowest.1
        );
        for (name, path) in ["scenario text", "links"].iter().zip(0..) {
            let [refused, stopped, drawn] = reached[path];
            println!(
                "fuzz:   {name}: {} inputs, {refused} refused, {stopped} stopped at a limit, {drawn} drawn; {} over 1 s",
                refused + stopped + drawn,
                slow[path]
            );
        }
        println!(
            "fuzz: {} failures (panics, malformed output, inputs over {TIME_PER_INPUT:?}); peak memory {} MiB",
            failures.len(),
            peak_mib().map_or("?".into(), |m| m.to_string())
        );
        for (i, (name, input, why)) in failures.iter().enumerate() {
            println!("FAIL {name}: {why}");
            let small = shrink(input);
            println!("     shrunk from {} to {} bytes", input.bytes().len(), small.bytes().len());
            if let Some(dir) = &o.save {
                std::fs::create_dir_all(dir).expect("the save directory can be made");
                let path = dir.join(format!("failure-{}-{i}.{}", o.seed, small.extension()));
                std::fs::write(&path, small.bytes()).expect("the failing input can be saved");
                println!("     saved to {}", path.display());
            }
        }
        // A pass that drew nothing would test nothing past the reader.
        let [refused, _, drawn] = [0, 1, 2].map(|r| reached[0][r] + reached[1][r]);
        if o.runs >= 1_000 && (drawn < o.runs / 20 || refused < o.runs / 20 || reached[1][2] == 0) {
            println!(
                "fuzz: too few inputs reached the end ({drawn}, {} by link) or were refused ({refused}): the mutations are off",
                reached[1][2]
            );
            std::process::exit(1);
        }
        std::process::exit(i32::from(!failures.is_empty()));
    }
}
