//! The run-time selector of seed 001 §4.1 steps (4)–(5) (after STAR-MPI): among the
//! candidates left after pruning ([`super::model::predict`]'s shortlist), each call of the
//! collective runs the candidate the selector names and reports the time it took.
//!
//! - **Learning**: calls cycle through the candidates in order (0, 1, …, n−1, 0, 1, …)
//!   until each has K measurements; the choice is then the candidate with the lowest mean
//!   (ties to the earlier one), and the second-lowest mean is kept as the reference.
//! - **Monitoring**: every call runs the choice. Its last K measurements form a window;
//!   once the window is full and its mean exceeds the reference by the margin
//!   (mean > second-best · (1 + margin)), the choice is no longer trusted: every record
//!   is cleared and learning starts again. With one candidate there is nothing to learn
//!   or monitor.
//!
//! Deterministic: the same measurements give the same sequence of candidates. One
//! selector per communicator; it holds no global state.

use crate::error::{Error, Result};

#[cfg(test)]
/// Where the selector is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Measuring every candidate K times.
    Learning,
    /// Running the choice and watching its times.
    Monitoring,
}

/// A run-time selector over named candidates.
#[derive(Clone, Debug)]
pub struct Selector {
    names: Vec<String>,
    k: u32,
    margin: f64,
    samples: Vec<Vec<f64>>,
    /// learning: calls handed out so far in this round of learning
    turn: usize,
    /// candidate handed out by `next` and not yet recorded
    pending: Option<usize>,
    choice: Option<usize>,
    /// mean of the second-best candidate when the choice was made (∞ with one candidate)
    reference: f64,
    window: Vec<f64>,
    relearned: u32,
}

impl Selector {
    /// A selector over `candidates` (non-empty, distinct names), K measurements each
    /// (K ≥ 1), re-learning when the choice's mean gets `margin` (≥ 0, 0.2 = 20 %) slower
    /// than the second-best's.
    pub fn new(candidates: Vec<String>, k: u32, margin: f64) -> Result<Selector> {
        if candidates.is_empty() {
            return Err(Error::input(
                "candidates",
                "none given; valid: at least one algorithm name",
                None,
            ));
        }
        if let Some(bad) = candidates.iter().find(|c| c.trim().is_empty()) {
            return Err(Error::input("candidates", format!("empty name `{bad}`"), None));
        }
        for (i, c) in candidates.iter().enumerate() {
            if candidates[..i].contains(c) {
                return Err(Error::input("candidates", format!("`{c}` is listed twice"), None));
            }
        }
        if k == 0 {
            return Err(Error::input(
                "k",
                "0 is out of range; valid: at least 1 measurement per candidate",
                None,
            ));
        }
        if !margin.is_finite() || margin < 0.0 {
            return Err(Error::input(
                "margin",
                format!("{margin} is out of range; valid: a fraction ≥ 0 (0.2 = 20 % slower)"),
                None,
            ));
        }
        let n = candidates.len();
        let mut s = Selector {
            names: candidates,
            k,
            margin,
            samples: vec![Vec::new(); n],
            turn: 0,
            pending: None,
            choice: None,
            reference: f64::INFINITY,
            window: Vec::new(),
            relearned: 0,
        };
        if n == 1 {
            s.choice = Some(0);
        }
        Ok(s)
    }

    /// The candidates' names, in the order given.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    #[cfg(test)]
    /// Learning or monitoring.
    pub(crate) fn stage(&self) -> Stage {
        if self.choice.is_some() {
            Stage::Monitoring
        } else {
            Stage::Learning
        }
    }

    /// The candidate to run for the next call (its index in [`Selector::names`]). Asking
    /// again before [`Selector::record`] names the same one.
    pub fn next_candidate(&mut self) -> usize {
        if let Some(i) = self.pending {
            return i;
        }
        let i = self.choice.unwrap_or(self.turn % self.names.len());
        self.pending = Some(i);
        i
    }

    /// Record how long the call [`Selector::next_candidate`] named took, in seconds (finite, ≥ 0).
    pub fn record(&mut self, seconds: f64) -> Result<()> {
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(Error::input(
                "seconds",
                format!("{seconds} is not a duration; valid: seconds ≥ 0"),
                None,
            ));
        }
        let Some(i) = self.pending.take() else {
            return Err(Error::input(
                "record",
                "no call is pending: ask for the next candidate first",
                Some("call next_candidate(), run that algorithm, then record() its time".into()),
            ));
        };
        match self.choice {
            None => {
                self.samples[i].push(seconds);
                self.turn += 1;
                if self.samples.iter().all(|s| s.len() >= self.k as usize) {
                    self.decide();
                }
            }
            Some(_) => {
                self.window.push(seconds);
                if self.window.len() > self.k as usize {
                    self.window.remove(0);
                }
                let mean = self.window.iter().sum::<f64>() / self.window.len() as f64;
                if self.window.len() == self.k as usize && mean > self.reference * (1.0 + self.margin) {
                    self.relearn();
                }
            }
        }
        Ok(())
    }

    /// The chosen candidate, once learning is over (`None` while learning).
    pub fn choice(&self) -> Option<usize> {
        self.choice
    }

    #[cfg(test)]
    /// How often monitoring sent the selector back to learning.
    pub(crate) fn relearned(&self) -> u32 {
        self.relearned
    }

    /// Mean measured time of each candidate in the current round of learning (`None`
    /// where there is no measurement).
    pub(crate) fn means(&self) -> Vec<Option<f64>> {
        self.samples
            .iter()
            .map(|s| (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64))
            .collect()
    }

    fn decide(&mut self) {
        let means: Vec<f64> = self.means().into_iter().map(|m| m.unwrap_or(f64::INFINITY)).collect();
        let mut order: Vec<usize> = (0..means.len()).collect();
        order.sort_by(|&a, &b| means[a].total_cmp(&means[b]).then(a.cmp(&b)));
        self.choice = Some(order[0]);
        self.reference = order.get(1).map_or(f64::INFINITY, |&j| means[j]);
        self.window.clear();
    }

    fn relearn(&mut self) {
        self.samples.iter_mut().for_each(Vec::clear);
        self.turn = 0;
        self.choice = None;
        self.reference = f64::INFINITY;
        self.window.clear();
        self.relearned += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(k: u32, margin: f64) -> Selector {
        Selector::new(vec!["pair".into(), "ring".into(), "bruck".into()], k, margin).unwrap()
    }

    #[test]
    fn learns_round_robin_then_keeps_the_fastest() {
        let mut s = sel(2, 0.2);
        let times = [3.0, 2.0, 5.0];
        let mut order = Vec::new();
        for _ in 0..6 {
            assert_eq!(s.stage(), Stage::Learning);
            let i = s.next_candidate();
            assert_eq!(s.next_candidate(), i, "asking again names the same");
            order.push(i);
            s.record(times[i]).unwrap();
        }
        assert_eq!(order, [0, 1, 2, 0, 1, 2]);
        assert_eq!((s.stage(), s.choice()), (Stage::Monitoring, Some(1)));
        for _ in 0..10 {
            assert_eq!(s.next_candidate(), 1);
            s.record(2.1).unwrap();
        }
        assert_eq!(s.relearned(), 0);
    }

    #[test]
    fn a_choice_slower_than_the_second_best_by_the_margin_is_learned_again() {
        let mut s = sel(2, 0.2);
        for t in [3.0, 2.0, 5.0, 3.0, 2.0, 5.0] {
            s.next_candidate();
            s.record(t).unwrap();
        }
        // reference is pair's 3.0: 3.5 is within 20 %, 3.7 is not (window of K = 2)
        s.next_candidate();
        s.record(3.5).unwrap();
        s.next_candidate();
        s.record(3.5).unwrap();
        assert_eq!(s.stage(), Stage::Monitoring);
        s.next_candidate();
        s.record(3.9).unwrap();
        assert_eq!((s.stage(), s.relearned()), (Stage::Learning, 1));
        assert_eq!(s.next_candidate(), 0, "learning starts over at the first candidate");
        // deterministic: the same measurements, the same decisions
        let run = || {
            let mut s = sel(1, 0.0);
            [1.0, 0.5, 2.0, 0.6, 0.4]
                .iter()
                .map(|&t| {
                    let i = s.next_candidate();
                    s.record(t).unwrap();
                    i
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn misuse_is_an_error_not_a_panic() {
        let mut s = sel(1, 0.1);
        assert!(s.record(1.0).unwrap_err().to_string().contains("no call is pending"));
        s.next_candidate();
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert!(s.record(bad).unwrap_err().to_string().contains("not a duration"));
        }
        assert!(Selector::new(vec![], 1, 0.1).is_err());
        assert!(Selector::new(vec!["a".into(), "a".into()], 1, 0.1).is_err());
        assert!(Selector::new(vec!["a".into()], 0, 0.1).is_err());
        assert!(Selector::new(vec!["a".into()], 1, -0.5).is_err());
        let mut one = Selector::new(vec!["spread".into()], 3, 0.1).unwrap();
        assert_eq!((one.choice(), one.next_candidate()), (Some(0), 0));
        one.record(1e9).unwrap();
        assert_eq!(one.relearned(), 0, "one candidate: nothing to learn");
    }
}
