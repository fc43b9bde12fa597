//! The end of a run: the formats' end-of-run checks, strict mode's verdict, and the one report
//! built from the scorer's figures, the files read and the warnings kept.

use super::state::State;
use super::Finished;
use crate::metrics::bootstrap::BootstrapOptions;
use crate::profiles::{Profile, Scorer};
use crate::warning::Warning;
use crate::Error;

/// Which formats read a field the user names, for the warning when no item had it.
const READS_FIELDS: &str = "scorelens and CSV files read any key or column, lm-eval samples any key or doc.KEY, Inspect logs a key of each sample's metadata (KEY or metadata.KEY)";

impl State {
    /// The report with the records kept on request: the explorer's and the bootstrap's (sealed
    /// and ready to resample or compare), with bootstrap intervals when `bootstrap` is given.
    pub(super) fn finish(
        mut self,
        bootstrap: Option<&BootstrapOptions>,
    ) -> Result<Finished, Error> {
        // A run stopped by strict mode has its verdict already.
        if !self.stopped {
            for f in std::mem::take(&mut self.used) {
                f.end_run(&mut self);
            }
        }
        let s = self;
        if s.strict {
            if let Some(w) = s.first_warning {
                return Err(Error::Strict(w));
            }
        }
        let mut warnings = s.warnings;
        if s.dropped_warnings > 0 {
            warnings.push(Warning {
                file: String::new(),
                line: None,
                reason: format!("{} more warnings not shown", s.dropped_warnings),
            });
        }
        // A file of the tool's own figures (an aggregate) makes a report even without items.
        if s.items == 0 && s.reported.is_empty() {
            return Err(Error::NoItems(warnings));
        }
        // With no item the scorer was never made; the files' benchmark still picks the profile.
        let named = s.ctx.benchmark.as_deref().and_then(Profile::parse);
        let profile = s.chosen.or(named).unwrap_or_else(Profile::generic);
        let mut scorer = s.scorer.unwrap_or_else(|| Scorer::new(profile));
        scorer.settle();
        let mut ctx = s.ctx;
        ctx.reported = s.reported;
        let mut report = scorer.finish(&ctx);
        report.files = s.files;
        report.skipped = s.skipped;
        // Warnings the profile raised (a null section, say) follow those of the files.
        warnings.append(&mut report.warnings);
        if let Some(field) = s.cluster.as_ref().and_then(|c| c.field()) {
            if s.clustered_items == 0 {
                warnings.push(Warning::new(
                    "",
                    None,
                    format!("no item has the cluster field `{field}`, so every item is its own cluster: check the field's name (a column, a key, or a path such as metadata.{field}); {}", READS_FIELDS),
                ));
            }
        }
        report.warnings = warnings;
        let mut sample = s.sample;
        if let Some(sample) = sample.as_mut() {
            sample.seal(&report);
            if s.cluster.is_some() {
                report.intervals.clustered =
                    Some(crate::report::clustered::clustered(sample, &report));
            }
            if let Some(opts) = bootstrap {
                let parts = super::spread(opts.resamples, |r| sample.draws(opts, r));
                report.intervals.bootstrap = Some(sample.intervals(opts, parts));
            }
        }
        let mut explorer = s.explorer;
        if let Some(e) = explorer.as_mut() {
            e.shrink_to_fit();
        }
        Ok(Finished {
            report,
            explorer,
            sample,
            sample_dropped: s.sample_dropped,
            clustered_items: s.clustered_items,
        })
    }
}
