//! The main job: generations of self-play -> training -> evaluation, with
//! checkpoints, `matches.jsonl`, Elo and plots, resumable at any point.
//!
//! Layout for a run NAME under ROOT: shards in
//! `ROOT/data/NAME/shards/gen-NNNNNN/` ([`crate::generations`]), bad ones
//! in `ROOT/data/NAME/quarantine/`; checkpoints (`<step>.bpk`,
//! `<step>.json`, `<step>.optim.bpk`; with a moving average of the
//! weights, the newest step's raw weights in `raw/`), `state.json`,
//! `matches.jsonl`, `elo.csv` and the plots in `ROOT/checkpoints/NAME/`. `state.json` is
//! rewritten (atomically) after each finished phase; a killed run restarts
//! from the last checkpoint it names, keeping the games of a generation
//! it had not finished and playing only the missing ones.

use crate::anchors::play_mixture_anchor_games;
use crate::budget::Spent;
use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::generations::{
    generation_folder, partial_folder, publish_generation, quarantine, window_files,
};
use crate::incoming::{Intake, SelfPlaySource};
use crate::layout::{check_run_name, player_name, RunLayout, RunPaths};
use crate::losses::Losses;
use crate::matches::{append_matches, read_matches, MatchLine};
use crate::publish::Publisher;
use crate::report::{report, RunRatings};
use crate::samples::ValueTargets;
use crate::state::{read_state, CheckpointInfo, LossRecord, ProbeRecord, RunState, SelfPlayRecord};
use crate::step::Trainer;
use crate::value_baseline::ValueBaseline;
use crate::window::{window_size, ReplayWindow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use jungle_net::{
    load_checkpoint, save_checkpoint, CheckpointMeta, Compute, InferenceNet, NetEvaluator,
    TrainedVariant,
};
use jungle_play::arena::{run_match, ArenaConfig};
use jungle_play::elo::Rating;
use jungle_play::opening::derive_seed;
use jungle_play::{NetSpec, PlayerFactory, PlayerSpec};
use jungle_probe::metrics::PROBE_SCORE;
use jungle_probe::{probe_network, Metric, Suite};
use jungle_rules::RuleMixture;
use jungle_selfplay::{
    read_shard_among, run_selfplay, shard_files, shard_stats, GameList, SelfPlayStats, ShardStats,
};
use jungle_store::Store;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Held while a new run seeds the backend and initialises its network.
static INIT_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The in-run probe's sub-suite: one position in this many of the standard
/// suite ([`Suite::every`]).
pub const PROBE_SUBSUITE_EVERY: usize = 6;

/// The most new positions a generation's held-out losses are measured on.
pub const HELD_OUT_POSITIONS: usize = 2048;
/// Batches the moving average's batch norms are recomputed on, each
/// checkpoint (`weight_average_decay`).
const AVERAGE_NORM_BATCHES: usize = 8;

/// A metric of the probe in the generation line (`-` where the sub-suite
/// has no position for it).
fn metric_text(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{x:.3}"))
}

/// Seconds one generation spent in each phase (for its summary line).
struct PhaseTimes {
    selfplay: f64,
    train: f64,
    eval: f64,
    /// Reading and writing the store (taking workers' shards, publishing).
    store: f64,
}

/// Names of players with games in `matches.jsonl`.
type PlayerNames = std::collections::HashSet<String>;

fn write_json_atomically<T: Serialize>(path: &Path, value: &T) -> Result<(), TrainError> {
    let text = serde_json::to_string_pretty(value).expect("serialises");
    jungle_files::write_atomically(path, text.as_bytes()).map_err(TrainError::io(path))
}

fn bar(len: u64, template: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if quiet {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
    bar
}

/// Takes the run's lock (`run.lock` beside `state.json`): a second process
/// on the same run would compute the same shard numbers and checkpoints.
pub(crate) fn lock_run(paths: &RunPaths, name: &str) -> Result<std::fs::File, TrainError> {
    let path = paths.checkpoints.join("run.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(TrainError::io(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(TrainError::Locked {
            run: name.to_string(),
            lock: path,
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(TrainError::io(&path)(e)),
    }
}

/// A warning on stderr (shown even when quiet: it names a file the user
/// should look at).
fn warn(message: &str) {
    eprintln!("warning: {message}");
}

/// A training run.
pub struct Run {
    config: TrainConfig,
    /// The rule sets self-play draws its games from and evaluation plays
    /// under (the first is the checkpoints' `rules`).
    mixture: RuleMixture,
    paths: RunPaths,
    state: RunState,
    trainer: Trainer,
    /// Where the network trains and self-play's evaluations run.
    compute: Compute,
    quiet: bool,
    /// The run's name.
    name: String,
    /// The store the run is mirrored to (`--store`), if any.
    publisher: Option<Publisher>,
    /// Who plays the self-play games.
    source: SelfPlaySource,
    /// Seconds the current generation spent reading and writing the store.
    store_seconds: f64,
    /// The sub-suite the bare network is probed on (`None`: not probed).
    probe_suite: Option<Suite>,
    /// Whether the run has warned that its evaluations crowd out training.
    warned_evaluation: bool,
    /// `run.lock`, locked while the run is open (the operating system
    /// releases the lock when the process ends, however it ends).
    _lock: std::fs::File,
}

impl Run {
    /// Opens run `name` under `root`: resumes it if `state.json` exists
    /// (`config` may differ from the run's own only in the keys of
    /// [`crate::config::SAFE_ON_RESUME`], and becomes the run's config;
    /// see [`run_config`]), else starts it from a freshly initialised
    /// network (checkpoint step 0).
    pub fn open(
        root: &Path,
        name: &str,
        config: TrainConfig,
        quiet: bool,
    ) -> Result<Run, TrainError> {
        check_run_name(name)?;
        config.validate("the run's config")?;
        let paths = RunPaths::new(root, name);
        for dir in [&paths.shards, &paths.checkpoints] {
            std::fs::create_dir_all(dir).map_err(TrainError::io(dir))?;
        }
        let lock = lock_run(&paths, name)?;
        let mixture = config.mixture()?;
        let compute = config.train.device.resolve()?;
        let device = compute.device().clone();
        let state_path = paths.state();
        let (state, trainer) = if state_path.exists() {
            let mut state = read_state(&paths)?;
            // Read the run's config as `run_config` does, over today's
            // default: a key added since the run began (absent from its
            // state.json) takes its default, which is no change.
            let origin = format!("run `{name}`'s config ({})", state_path.display());
            let saved = state.config.with_sets(&origin, &[])?;
            let changes = saved.changes(&config);
            let refused: Vec<String> = changes
                .iter()
                .filter(|c| !c.is_safe_on_resume())
                .map(ToString::to_string)
                .collect();
            if !refused.is_empty() {
                return Err(TrainError::ConfigChanged {
                    run: name.to_string(),
                    state: state_path,
                    changes: refused,
                });
            }
            if !changes.is_empty() {
                state.config = config.clone();
                write_json_atomically(&state_path, &state)?;
            }
            let prefix = paths.checkpoint(state.step);
            // Loaded straight onto the autodiff device, so its parameters
            // are tracked for training.
            let autodiff = device.clone().autodiff();
            let ck = load_checkpoint(&prefix, &autodiff)?;
            // With a moving average the checkpoint holds the average, and
            // training goes on from the raw weights kept beside it (a
            // checkpoint without them, the first, is both).
            let decay = config.train.weight_average_decay;
            let raw = paths.raw_checkpoint(state.step);
            let (trained, average) = if decay > 0.0 && raw.with_extension("json").exists() {
                (load_checkpoint(&raw, &autodiff)?.net, Some(ck.net))
            } else if decay > 0.0 {
                (ck.net.clone(), Some(ck.net))
            } else {
                (ck.net, None)
            };
            let mut trainer = Trainer::from_net(
                trained,
                &autodiff,
                config.train.learning_rate,
                config.train.weight_decay(),
            );
            if let Some(average) = &average {
                trainer.start_average(decay, Some(average));
            }
            trainer.set_loss_weights(config.train.loss_weights());
            // Every checkpoint after the first has its optimiser state:
            // without it Adam would restart from zero moments unnoticed.
            if state.step > 0 {
                let optim = prefix.with_extension("optim.bpk");
                if !optim.exists() {
                    return Err(TrainError::Optimizer {
                        path: optim,
                        message: format!(
                            "missing: step {} has no optimiser state to resume from",
                            state.step
                        ),
                    });
                }
                trainer.load_optimizer(&optim)?;
            }
            (state, trainer)
        } else {
            // The backend's seed is one per process: two runs opened at
            // once in one process take turns, so each gets its own seed's
            // network.
            let _turn = INIT_TURN.lock().unwrap_or_else(|e| e.into_inner());
            device.seed(config.run.seed);
            let mut trainer = Trainer::new(
                &config.net,
                &device,
                config.train.learning_rate,
                config.train.weight_decay(),
            );
            if config.train.weight_average_decay > 0.0 {
                trainer.start_average(config.train.weight_average_decay, None);
            }
            trainer.set_loss_weights(config.train.loss_weights());
            let state = RunState {
                config: config.clone(),
                generation: 0,
                step: 0,
                samples_seen: 0,
                games: 0,
                positions_ever: 0,
                seconds: 0.0,
                checkpoints: Vec::new(),
                losses: Vec::new(),
                selfplay: Vec::new(),
                budget: None,
                probes: Vec::new(),
            };
            (state, trainer)
        };
        let mut run = Run {
            config,
            mixture,
            paths,
            state,
            trainer,
            compute,
            quiet,
            name: name.to_string(),
            publisher: None,
            source: SelfPlaySource::Local,
            store_seconds: 0.0,
            probe_suite: None,
            warned_evaluation: false,
            _lock: lock,
        };
        run.probe_suite = run.load_probe_suite()?;
        if run.state.checkpoints.is_empty() {
            run.save_checkpoint(None)?;
        }
        Ok(run)
    }

    /// The fixed sub-suite of the standard suite the run probes its
    /// network on, when `[eval] probe_every` is set and the run's first
    /// rule set is the standard one (the suite's labels are under it).
    fn load_probe_suite(&self) -> Result<Option<Suite>, TrainError> {
        let standard = jungle_rules::Rules::preset("standard").expect("a preset");
        if self.config.eval.probe_every == 0 || *self.mixture.rules(0) != standard {
            return Ok(None);
        }
        let suite = Suite::standard()?;
        Ok(Some(suite.every(PROBE_SUBSUITE_EVERY)))
    }

    /// Probes the current network on the sub-suite if the generation is
    /// due ([`ProbeRecord`]).
    fn probe_if_due(&mut self) {
        let Some(suite) = &self.probe_suite else {
            return;
        };
        if !self
            .state
            .generation
            .is_multiple_of(self.config.eval.probe_every)
        {
            return;
        }
        let net = InferenceNet::new(&self.trainer.inference_net(), &self.compute);
        let mut evaluator = NetEvaluator::on(net);
        let probe = probe_network(&mut evaluator, suite);
        let mean = |m: Metric| probe.metrics.all(m).map(|e| e.mean);
        self.state.probes.push(ProbeRecord {
            generation: self.state.generation,
            step: self.state.step,
            positions: probe.positions,
            score: probe.metrics.named(PROBE_SCORE).map(|e| e.mean),
            policy_top1: mean(Metric::PolicyTop1),
            policy_mass: mean(Metric::PolicyMass),
            value_sign: mean(Metric::ValueSign),
            value_logloss: mean(Metric::ValueLogLoss),
            seconds: probe.seconds,
        });
    }

    /// Where the network trains and self-play evaluates.
    pub fn compute(&self) -> &Compute {
        &self.compute
    }

    /// The run's state.
    pub fn state(&self) -> &RunState {
        &self.state
    }

    /// The run's paths.
    pub fn paths(&self) -> &RunPaths {
        &self.paths
    }

    /// The error that stops a run whose training diverged at `step` of
    /// generation `generation`, `what` saying what was found; nothing of
    /// the generation is saved, so the run's last checkpoint stays its
    /// newest.
    fn diverged(&self, generation: u32, step: u64, what: String) -> TrainError {
        TrainError::Diverged {
            run: self.name.clone(),
            generation,
            step,
            what,
            last: self.state.checkpoints.last().map(|c| c.step),
        }
    }

    /// Saves the checkpoint of the current step: `averaged` (the moving
    /// average of the weights) when given, with the raw weights beside it
    /// under `raw/` (the previous step's raw weights are then removed),
    /// else the trained network.
    fn save_checkpoint(
        &mut self,
        averaged: Option<jungle_net::PolicyValueNet>,
    ) -> Result<(), TrainError> {
        let raw = self.trainer.inference_net();
        for net in std::iter::once(&raw).chain(averaged.as_ref()) {
            if let Some(found) = jungle_net::tensors::first_non_finite(net) {
                return Err(self.diverged(
                    self.state.generation,
                    self.state.step,
                    found.to_string(),
                ));
            }
        }
        let prefix = self.paths.checkpoint(self.state.step);
        let mut meta = CheckpointMeta::new(
            self.config.net.clone(),
            self.mixture.rules(0).clone(),
            self.state.step,
            self.state.samples_seen,
        );
        if self.mixture.len() > 1 {
            meta.trained_variants = (0..self.mixture.len())
                .map(|i| TrainedVariant {
                    variant: self.mixture.name(i).to_string(),
                    weight: self.mixture.weight(i),
                    rules: self.mixture.rules(i).clone(),
                })
                .collect();
        }
        match &averaged {
            Some(net) => {
                save_checkpoint(&prefix, net, &meta)?;
                save_checkpoint(&self.paths.raw_checkpoint(self.state.step), &raw, &meta)?;
                let previous = self.state.checkpoints.last().map(|c| c.step);
                if let Some(step) = previous.filter(|&s| s != self.state.step) {
                    let old = self.paths.raw_checkpoint(step);
                    for suffix in ["bpk", "json"] {
                        let _ = std::fs::remove_file(old.with_extension(suffix));
                    }
                }
            }
            None => save_checkpoint(&prefix, &raw, &meta)?,
        }
        if self.state.step > 0 {
            self.trainer
                .save_optimizer(&prefix.with_extension("optim.bpk"))?;
        }
        self.state.checkpoints.push(CheckpointInfo {
            generation: self.state.generation,
            step: self.state.step,
            hours: self.state.seconds / 3600.0,
            games: self.state.games,
            samples_seen: self.state.samples_seen,
        });
        self.write_state()
    }

    /// Writes `state.json` with the budget's status as of now.
    fn write_state(&mut self) -> Result<(), TrainError> {
        self.state.budget = Some(self.config.run.budget_status(self.state.spent()));
        write_json_atomically(&self.paths.state(), &self.state)
    }

    fn finished(&self) -> bool {
        self.config.run.is_spent(self.state.spent())
    }

    /// Runs generations until the config's limit; returns the final Elo tables.
    pub fn run(&mut self) -> Result<RunRatings, TrainError> {
        let anchors_bar = bar(
            0,
            "anchors among themselves {bar:30} {pos}/{len} games [{elapsed} < {eta}] {msg}",
            self.quiet,
        );
        play_mixture_anchor_games(
            &self.paths.anchors,
            &self.config.eval,
            &self.mixture,
            &anchors_bar,
        )?;
        self.evaluate_if_needed()?;
        while !self.finished() {
            self.generation()?;
        }
        let ratings = self.report()?;
        if let Some(publisher) = self.publisher.take() {
            publisher.finish(&self.paths, &self.state)?;
        }
        Ok(ratings)
    }

    /// Mirrors the run to `store` ([`crate::publish`]): publishes what it
    /// holds now, then each generation as it finishes. A store on the
    /// run's own root folder is the run's files already: nothing to copy.
    pub fn publish_to(&mut self, store: Store, root: &Path) -> Result<(), TrainError> {
        let same_folder = match (store.local_folder(), std::path::absolute(root)) {
            (Some(folder), Ok(root)) => folder == root,
            _ => false,
        };
        let local = std::path::absolute(&self.paths.checkpoints)
            .map_err(TrainError::io(&self.paths.checkpoints))?;
        let mut publisher = Publisher::open(store, &self.name, &self.state, &local)?;
        if same_folder {
            // The run's files are there already: only `latest.json` (for
            // workers) is written.
            publisher.point_only();
        }
        publisher.publish(&self.paths, &self.state)?;
        self.publisher = Some(publisher);
        Ok(())
    }

    /// Lets workers play the self-play games ([`crate::worker`],
    /// [`crate::incoming`]): each generation waits for its quota of games
    /// in the store the run is published to ([`Run::publish_to`] first),
    /// looking every `poll`.
    pub fn play_external(&mut self, poll: std::time::Duration) -> Result<(), TrainError> {
        if self.publisher.is_none() {
            return Err(TrainError::NoStore {
                run: self.name.clone(),
            });
        }
        self.source = SelfPlaySource::External { poll };
        Ok(())
    }

    /// How far through its budget the run is (0 to 1) after `extra_seconds`
    /// more of run time and `extra_samples` more samples trained
    /// ([`crate::config::RunSection::progress`]).
    fn progress(&self, extra_seconds: f64, extra_samples: u64) -> f64 {
        let spent = self.state.spent();
        self.config.run.progress(Spent {
            seconds: spent.seconds + extra_seconds,
            samples: spent.samples + extra_samples,
            ..spent
        })
    }

    /// Whether the current checkpoint is one to evaluate: the first, every
    /// `[eval] every`-th generation's and the last.
    fn due_for_evaluation(&self) -> bool {
        let gen = self.state.generation;
        gen <= 1 || gen.is_multiple_of(self.config.eval.every) || self.finished()
    }

    /// Evaluates the current checkpoint if it is due, playing only the
    /// games `matches.jsonl` does not hold yet (an evaluation cut short by
    /// a kill is finished, not skipped or repeated).
    fn evaluate_if_needed(&mut self) -> Result<(), TrainError> {
        if self.due_for_evaluation() {
            self.evaluate_and_record()?;
        }
        Ok(())
    }

    /// One generation: self-play, training, checkpoint, evaluation, report.
    fn generation(&mut self) -> Result<(), TrainError> {
        let gen = self.state.generation + 1;
        let cfg = self.config.clone();
        let started = Instant::now();

        // Self-play with the current network, into the generation's folder.
        let games = self.play_generation(gen)?;
        let selfplay_seconds = started.elapsed().as_secs_f64();
        let new_positions = games.positions;
        let selfplay_record = SelfPlayRecord {
            generation: gen,
            step: self.state.step,
            games: games.games,
            draws: games.results[1],
            plies: games.plies,
            ended: games.reasons.clone(),
        };
        self.state.games += selfplay_record.games;
        self.state.positions_ever += new_positions;

        // Training on the replay window.
        let t = &cfg.train;
        let size = window_size(
            t.window_min_positions,
            t.window_growth,
            t.window_max_positions,
            self.state.positions_ever,
        );
        let files = window_files(&self.paths.shards, gen)?;
        let window = ReplayWindow::load(
            &files,
            &self.paths.quarantine,
            &self.mixture,
            self.config.net.encoding(),
            size,
            ValueTargets {
                td_lambda: self.config.train.value_td_lambda as f32,
                search_weight: self.config.train.value_search_weight as f32,
            },
            self.config.train.surprise_weight as f32,
        )?;
        for q in window.quarantined() {
            warn(&q.to_string());
        }
        let mut steps = ((new_positions as f64 * t.sample_reuse / t.batch_size as f64).ceil()
            as usize)
            .clamp(t.min_steps, t.max_steps);
        if let Some(left) = cfg.run.steps_left(self.state.samples_seen, t.batch_size) {
            steps = steps.min(left);
        }
        let held_out = self.held_out_losses(&window, new_positions as usize, gen);
        // The moving average's batch norms are recomputed on batches of
        // their own, drawn after training's.
        let averaged_batches = |window: &ReplayWindow| -> Vec<crate::samples::Batch> {
            let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(cfg.run.seed, gen as u64, 3));
            (0..AVERAGE_NORM_BATCHES)
                .map(|_| window.batch(&mut rng, t.batch_size))
                .collect()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(cfg.run.seed, gen as u64, 2));
        let train_bar = bar(
            steps as u64,
            &format!("gen {gen} training  {{bar:30}} {{pos}}/{{len}} steps [{{elapsed}} < {{eta}}] {{msg}}"),
            self.quiet,
        );
        let mut sum = Losses::default();
        let mut value_baseline = ValueBaseline::default();
        // The clock is read once a generation; samples at every step.
        let seconds = started.elapsed().as_secs_f64();
        let mut learning_rate = t.learning_rate_at(self.state.step, self.progress(seconds, 0));
        if !window.is_empty() {
            for k in 0..steps {
                let progress = self.progress(seconds, (k * t.batch_size) as u64);
                learning_rate = t.learning_rate_at(self.state.step + k as u64, progress);
                self.trainer.learning_rate = learning_rate;
                let batch = window.batch(&mut rng, t.batch_size);
                value_baseline.add(&batch.wdl);
                let l = self.trainer.step(&batch);
                let finite = [l.policy, l.value, l.moves_left, l.survival, l.short_term];
                if !finite.iter().all(|x| x.is_finite()) {
                    return Err(self.diverged(
                        gen,
                        self.state.step + k as u64 + 1,
                        format!(
                            "loss policy {} value {} moves-left {} survival {} short-term {}",
                            l.policy, l.value, l.moves_left, l.survival, l.short_term
                        ),
                    ));
                }
                sum.policy += l.policy;
                sum.value += l.value;
                sum.moves_left += l.moves_left;
                sum.survival += l.survival;
                sum.short_term += l.short_term;
                train_bar.inc(1);
                train_bar.set_message(format!("policy {:.3} value {:.3}", l.policy, l.value));
            }
            self.state.step += steps as u64;
            self.state.samples_seen += (steps * t.batch_size) as u64;
        }
        let averaged = match window.is_empty() {
            true => None,
            false => self.trainer.averaged_net(&averaged_batches(&window)),
        };
        train_bar.finish_and_clear();
        let train_seconds = started.elapsed().as_secs_f64() - selfplay_seconds;
        let n = steps.max(1) as f32;
        self.state.losses.push(LossRecord {
            generation: gen,
            step: self.state.step,
            policy: sum.policy / n,
            value: sum.value / n,
            moves_left: sum.moves_left / n,
            survival: sum.survival / n,
            short_term: sum.short_term / n,
            learning_rate,
            weight_norm: self.trainer.weight_norm(),
            value_baseline: value_baseline.loss(),
            held_out_policy: held_out.map(|h| h.0),
            held_out_value: held_out.map(|h| h.1),
        });
        self.state.selfplay.push(selfplay_record);
        self.state.generation = gen;
        self.probe_if_due();
        self.state.seconds += started.elapsed().as_secs_f64();
        self.save_checkpoint(averaged)?;

        let eval_started = Instant::now();
        self.evaluate_if_needed()?;
        let times = PhaseTimes {
            selfplay: selfplay_seconds,
            train: train_seconds,
            eval: eval_started.elapsed().as_secs_f64(),
            store: 0.0,
        };
        let ratings = self.report()?;
        if let Some(publisher) = &mut self.publisher {
            let started = Instant::now();
            publisher.publish(&self.paths, &self.state)?;
            self.store_seconds += started.elapsed().as_secs_f64();
        }
        let times = PhaseTimes {
            store: std::mem::take(&mut self.store_seconds),
            ..times
        };
        if !self.quiet {
            self.print_generation(new_positions, window.len(), steps, &ratings.all, &times);
        }
        Ok(())
    }

    /// The policy and value losses of generation `gen`'s `new` positions
    /// (the window's newest, at most [`HELD_OUT_POSITIONS`]) before any
    /// step trains on them; `None` without any. Its own stream of random
    /// numbers, so training's is as it was.
    fn held_out_losses(&self, window: &ReplayWindow, new: usize, gen: u32) -> Option<(f32, f32)> {
        let cfg = &self.config;
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(cfg.run.seed, gen as u64, 3));
        let mut sum = Losses::default();
        let mut count = 0;
        for batch in
            window.newest_batches(new.min(HELD_OUT_POSITIONS), cfg.train.batch_size, &mut rng)
        {
            let l = self.trainer.measure(&batch);
            sum.policy += l.policy * batch.size as f32;
            sum.value += l.value * batch.size as f32;
            count += batch.size;
        }
        (count > 0).then(|| (sum.policy / count as f32, sum.value / count as f32))
    }

    /// Plays generation `gen`'s self-play into its partial folder and
    /// publishes it; returns what the published folder holds. A generation
    /// published before a kill is taken as it is; a partial one keeps its
    /// games and plays only the missing ones.
    fn play_generation(&mut self, gen: u32) -> Result<ShardStats, TrainError> {
        let cfg = &self.config;
        let shards = self.paths.shards.clone();
        let shards = &shards;
        let folder = generation_folder(shards, gen);
        if !folder.exists() {
            let partial = partial_folder(shards, gen);
            let mut games = GameList::new(
                cfg.run.games_per_generation,
                derive_seed(cfg.run.seed, gen as u64, 1),
            );
            match self.source {
                SelfPlaySource::Local => {
                    if partial.exists() {
                        let seeds = self.played_seeds(&partial)?;
                        games.mark_played(seeds);
                    }
                    std::fs::create_dir_all(&partial).map_err(TrainError::io(&partial))?;
                    if games.remaining() > 0 {
                        self.selfplay(gen, &games, &partial)?;
                    }
                }
                SelfPlaySource::External { poll } => {
                    std::fs::create_dir_all(&partial).map_err(TrainError::io(&partial))?;
                    self.collect(gen, &partial, poll)?;
                }
            }
            publish_generation(shards, gen).map_err(TrainError::io(&partial))?;
        }
        Ok(shard_stats(&folder, false)?)
    }

    /// Takes workers' shards into the partial folder until it holds the
    /// generation's games, renewing the lease while it waits.
    fn collect(&mut self, gen: u32, partial: &Path, poll: Duration) -> Result<(), TrainError> {
        let wanted = self.config.run.games_per_generation;
        let mut have = shard_stats(partial, false)?.games;
        let bar = bar(
            wanted,
            &format!("gen {gen} workers'  {{bar:30}} {{pos}}/{{len}} games [{{elapsed}}] {{msg}}"),
            self.quiet,
        );
        let mut stale = 0;
        let mut reported = std::collections::HashSet::new();
        let publisher = self.publisher.as_mut().expect("checked by play_external");
        while have < wanted {
            let intake = Intake {
                store: publisher.store(),
                prefix: RunLayout::new(&self.name).incoming(),
                partial,
                quarantine: &self.paths.quarantine,
                mixture: &self.mixture,
                checkpoints: &self.state.checkpoints,
                max_net_age: self.config.run.max_net_age,
            };
            let started = Instant::now();
            let taken = intake.take(wanted - have)?;
            self.store_seconds += started.elapsed().as_secs_f64();
            for q in &taken.quarantined {
                warn(&q.to_string());
            }
            for key in taken.foreign {
                if reported.insert(key.clone()) {
                    warn(&format!(
                        "store `{}`: `{key}` is not a shard (workers upload NAME.bin there); left where it is",
                        publisher.store().url().text
                    ));
                }
            }
            have += taken.games;
            stale += taken.stale_games;
            bar.set_position(have.min(wanted));
            bar.set_message(if stale > 0 {
                format!("{stale} games of too old networks dropped")
            } else {
                "waiting for `jungle worker`s".to_string()
            });
            if have < wanted {
                publisher.keep_alive()?;
                std::thread::sleep(poll);
            }
        }
        bar.finish_and_clear();
        Ok(())
    }

    /// The seeds of the games in a partial generation's shards; a shard
    /// that fails its check is quarantined (its games are played again).
    fn played_seeds(&self, partial: &Path) -> Result<Vec<u64>, TrainError> {
        let mut seeds = Vec::new();
        for path in shard_files(partial)? {
            match read_shard_among(&path, &self.mixture) {
                Ok((shard, _)) => seeds.extend(shard.games.iter().map(|g| g.seed)),
                Err(e) if e.damaged => {
                    let q = quarantine(&path, &self.paths.quarantine, &e.problem)
                        .map_err(TrainError::io(&self.paths.quarantine))?;
                    warn(&q.to_string());
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(seeds)
    }

    /// Plays `games` with the current network into `out`.
    fn selfplay(&self, gen: u32, games: &GameList, out: &Path) -> Result<(), TrainError> {
        let cfg = &self.config;
        let net = InferenceNet::new(&self.trainer.inference_net(), &self.compute);
        let selfplay = cfg.selfplay.for_device(self.compute.is_gpu());
        let stats = SelfPlayStats::default();
        let evaluators = selfplay.evaluators(&net, &stats.cache)?;
        drop(net);
        let sp_bar = bar(
            games.remaining(),
            &format!("gen {gen} self-play {{bar:30}} {{pos}}/{{len}} games [{{elapsed}} < {{eta}}] {{msg}}"),
            self.quiet,
        );
        run_selfplay(
            &selfplay,
            &self.mixture,
            evaluators,
            games,
            out,
            &player_name(self.state.step),
            &stats,
            &|s| {
                sp_bar.set_position(s.games.load(Ordering::Relaxed));
                sp_bar.set_message(format!("{} positions", s.positions.load(Ordering::Relaxed)));
            },
        )?;
        sp_bar.finish_and_clear();
        Ok(())
    }

    /// Evaluates the current checkpoint, counts the time as run time and
    /// saves the state.
    /// The untrained network's evaluation (generation 0) is the run's
    /// zero point, not part of its budget: a short budget in minutes still
    /// trains. An evaluation that takes more than a quarter of such a
    /// budget is warned about.
    fn evaluate_and_record(&mut self) -> Result<(), TrainError> {
        let started = Instant::now();
        self.evaluate()?;
        let seconds = started.elapsed().as_secs_f64();
        if self.state.generation > 0 {
            self.state.seconds += seconds;
        }
        if !self.warned_evaluation {
            if let Some(warning) = self.config.run.evaluation_warning(seconds) {
                warn(&warning);
                self.warned_evaluation = true;
            }
        }
        self.write_state()
    }

    /// Matches of the current checkpoint against the previous one and the anchors.
    fn evaluate(&mut self) -> Result<(), TrainError> {
        let cfg = &self.config.eval;
        let current_step = self.state.step;
        let spec = |step: u64| {
            PlayerSpec::Net(
                NetSpec::new(self.paths.checkpoint(step), cfg.simulations)
                    .with_material(cfg.material_weight)
                    .with_qsearch(cfg.qsearch_weight),
            )
            .load_on(&self.compute)
        };
        let current = spec(current_step)?;
        // The previous checkpoint that was evaluated (with `every` > 1 the
        // ones between were not).
        let (lines, _) = read_matches(&self.paths.matches())?;
        let evaluated: PlayerNames = lines.iter().flat_map(|m| [&m.a, &m.b]).cloned().collect();
        let previous = self
            .state
            .checkpoints
            .iter()
            .rev()
            .skip(1)
            .find(|c| evaluated.contains(&player_name(c.step)));
        let previous = match previous {
            Some(p) if cfg.games_vs_previous > 0 => Some((p.step, spec(p.step)?)),
            _ => None,
        };
        let me = player_name(current_step);
        let mut opponents: Vec<(String, Box<dyn PlayerFactory>, u32)> = Vec::new();
        if let Some((step, net)) = previous {
            opponents.push((player_name(step), net, cfg.games_vs_previous));
        }
        for anchor in &cfg.anchors {
            let spec = jungle_play::load_player(anchor)?;
            opponents.push((anchor.clone(), spec, cfg.games_vs_anchors));
        }
        // Every opponent under every rule set of the mixture (a line names
        // its rule set when there are several); a killed evaluation plays
        // only the games its lines lack.
        let tags: Vec<Option<String>> = (0..self.mixture.len())
            .map(|v| (self.mixture.len() > 1).then(|| self.mixture.name(v).to_string()))
            .collect();
        let jobs: Vec<(usize, usize, u32)> = (0..self.mixture.len())
            .flat_map(|v| (0..opponents.len()).map(move |k| (v, k)))
            .map(|(v, k)| {
                let played = lines
                    .iter()
                    .filter(|m| m.a == me && m.b == opponents[k].0 && m.variant == tags[v])
                    .count() as u32;
                (v, k, played)
            })
            .collect();
        let total: u64 = jobs
            .iter()
            .map(|&(_, k, played)| opponents[k].2.saturating_sub(played) as u64)
            .sum();
        if total == 0 {
            return Ok(());
        }
        let gen = self.state.generation;
        let eval_bar = bar(total, &format!("gen {gen} evaluation {{bar:30}} {{pos}}/{{len}} games [{{elapsed}} < {{eta}}] {{msg}}"), self.quiet);
        for &(v, k, played) in &jobs {
            let (name, opponent, games) = &opponents[k];
            if played >= *games {
                continue;
            }
            eval_bar.set_message(match &tags[v] {
                Some(variant) => format!("vs {name} ({variant})"),
                None => format!("vs {name}"),
            });
            // The first rule set keeps the seeds a run of one rule set has.
            let mut arena = ArenaConfig::new(
                self.mixture.rules(v).clone(),
                *games,
                derive_seed(
                    self.config.run.seed,
                    gen as u64,
                    100 + k as u64 + 1000 * v as u64,
                ),
            );
            arena.opening_plies = cfg.opening_plies;
            arena.first_game = played;
            let records = run_match(current.as_ref(), opponent.as_ref(), &arena, &|_| {
                eval_bar.inc(1)
            });
            for forfeit in records.iter().filter_map(|r| r.result.forfeit.as_ref()) {
                eval_bar.println(format!(
                    "gen {gen} evaluation: forfeit by {}",
                    forfeit.reason
                ));
            }
            let lines: Vec<MatchLine> = records
                .iter()
                .map(|r| MatchLine::of_game(gen, &me, name, r, tags[v].clone()))
                .collect();
            append_matches(&self.paths.matches(), &lines)?;
        }
        eval_bar.finish_and_clear();
        Ok(())
    }

    /// Refits Elo from `matches.jsonl`, writes `elo.csv` and the plots.
    pub fn report(&self) -> Result<RunRatings, TrainError> {
        report(&self.paths, &self.state)
    }

    fn print_generation(
        &self,
        positions: u64,
        window: usize,
        steps: usize,
        ratings: &[Rating],
        times: &PhaseTimes,
    ) {
        let s = &self.state;
        let l = s.losses.last().expect("a generation was trained");
        let sp = s.selfplay.last().expect("a generation played");
        // The newest evaluated checkpoint's rating.
        let elo = s
            .checkpoints
            .iter()
            .rev()
            .find_map(|c| ratings.iter().find(|r| r.player == player_name(c.step)));
        println!(
            "gen {:>3} | {:>5} games ({} total, {:.0}% drawn, {:.0}% repetition, {:.0} plies), {} positions | window {} | {} steps -> step {} | lr {:.2e} | weights {:.1} | loss policy {:.3} value {:.3}{} moves-left {:.3}{}{}{} | Elo {} | {:.1} min (self-play {:.0} s, training {:.0} s, evaluation {:.0} s{})",
            s.generation,
            sp.games,
            s.games,
            100.0 * sp.draw_rate(),
            100.0 * sp.ended.get(crate::summary::REPETITION).copied().unwrap_or(0) as f64
                / sp.games.max(1) as f64,
            sp.mean_plies(),
            positions,
            window,
            steps,
            s.step,
            l.learning_rate,
            l.weight_norm,
            l.policy,
            l.value,
            l.value_baseline
                .map_or(String::new(), |b| format!(" (constant guess {b:.3})")),
            l.moves_left,
            [("survival", l.survival), ("short-term", l.short_term)]
                .iter()
                .filter(|(_, loss)| *loss > 0.0)
                .map(|(name, loss)| format!(" {name} {loss:.3}"))
                .collect::<String>(),
            match (l.held_out_policy, l.held_out_value) {
                (Some(p), Some(v)) => format!(" | held-out policy {p:.3} value {v:.3}"),
                _ => String::new(),
            },
            s.probes
                .last()
                .filter(|p| p.generation == s.generation)
                .map_or(String::new(), |p| format!(
                    " | probe score {} top1 {} sign {} logloss {}",
                    metric_text(p.score),
                    metric_text(p.policy_top1),
                    metric_text(p.value_sign),
                    metric_text(p.value_logloss)
                )),
            elo.map_or("?".to_string(), |r| format!("{} {:+.0} +- {:.0}", r.player, r.elo, 1.96 * r.stderr)),
            s.seconds / 60.0,
            times.selfplay,
            times.train,
            times.eval,
            if self.publisher.is_some() {
                format!(", store {:.1} s", times.store)
            } else {
                String::new()
            },
        );
    }
}
