//! `eval --mongo-uri` and `export`: with the `mongodb` feature, the live
//! export of a run and the export of a run folder; without it, both are
//! refused with a message that names the feature.

#[cfg(feature = "mongodb")]
pub use with_driver::{export, finish_live, live};
#[cfg(not(feature = "mongodb"))]
pub use without_driver::{export, finish_live, live, Never};

/// With the `mongodb` feature.
#[cfg(feature = "mongodb")]
mod with_driver {
    use super::super::{load, CliError};
    use crate::mongo::{export_folder, ExportOptions, MongoError, MongoObserver, MongoTarget};
    use crate::run::RunFolder;
    use std::io::Write;
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    /// The live exporter of `eval`, when a URI is given.
    pub fn live(uri: Option<&str>, triples: bool) -> Result<Option<MongoObserver>, CliError> {
        let Some(uri) = uri else {
            if triples {
                return Err(CliError::new(
                    "`--mongo-triples` needs `--mongo-uri` (or FINKG_MONGO_URI)",
                ));
            }
            return Ok(None);
        };
        let target = MongoTarget::parse(uri)?;
        let options = ExportOptions {
            triples,
            ..ExportOptions::default()
        };
        Ok(Some(MongoObserver::start(&target, &options)))
    }

    /// Waits for the live export; on failure, says how to export the run later.
    pub fn finish_live(live: MongoObserver, out: &Path) -> Result<String, CliError> {
        live.finish().map(|r| r.to_string()).map_err(|e| {
            let hint = match &e {
                MongoError::Incomplete { uri: shown, .. } => format!(
                    "the run folder `{}` is complete: export it once the server is back with `finkg export {} --mongo-uri '{}'`",
                    out.display(),
                    out.display(),
                    shown
                ),
                _ => format!("export the run folder later with `finkg export {}`", out.display()),
            };
            CliError::from(e).with_hint(hint)
        })
    }

    /// `finkg export RUN_DIR`.
    pub fn export(
        run_dir: &Path,
        uri: Option<&str>,
        triples: bool,
        dataset: Option<&Path>,
        batch_size: usize,
    ) -> Result<ExitCode, CliError> {
        let uri = uri.ok_or_else(|| {
            CliError::new("`finkg export` needs `--mongo-uri URI` (or FINKG_MONGO_URI)")
        })?;
        let folder = RunFolder::read(run_dir)?;
        let target = MongoTarget::parse(uri)?;
        let examples = if triples {
            let path = dataset
                .map(Path::to_path_buf)
                .or_else(|| folder.run.dataset.as_ref().map(PathBuf::from))
                .ok_or_else(|| {
                    CliError::new(
                        "`--mongo-triples` needs the dataset: run.json names none, give `--dataset`",
                    )
                })?;
            Some((path.display().to_string(), load(&path)?))
        } else {
            None
        };
        let options = ExportOptions {
            triples,
            batch_size,
        };
        let dataset = examples
            .as_ref()
            .map(|(name, e)| (name.as_str(), e.as_slice()));
        let report = export_folder(&folder, &target, &options, dataset).map_err(|e| {
            let incomplete = matches!(e, MongoError::Incomplete { .. });
            let error = CliError::from(e);
            if incomplete {
                error.with_hint(format!(
                    "exporting again is safe (documents are upserted by key): once the server is back, run `finkg export {} --mongo-uri '{}'`",
                    run_dir.display(),
                    target.shown()
                ))
            } else {
                error
            }
        })?;
        writeln!(std::io::stdout().lock(), "{report}")?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Without the `mongodb` feature: MongoDB options are refused.
#[cfg(not(feature = "mongodb"))]
mod without_driver {
    use super::super::CliError;
    use crate::run::RunObserver;
    use std::path::Path;
    use std::process::ExitCode;

    const NEEDS_FEATURE: &str =
        "MongoDB export needs the mongodb feature: cargo install/build --features mongodb";

    /// Stands for the live exporter; never built.
    pub enum Never {}

    impl RunObserver for Never {}

    fn refuse() -> CliError {
        CliError::new(NEEDS_FEATURE)
    }

    /// Refuses MongoDB options.
    pub fn live(uri: Option<&str>, triples: bool) -> Result<Option<Never>, CliError> {
        if uri.is_some() || triples {
            return Err(refuse());
        }
        Ok(None)
    }

    /// Never called: there is no live export.
    pub fn finish_live(live: Never, _: &Path) -> Result<String, CliError> {
        match live {}
    }

    /// Refuses `finkg export`.
    pub fn export(
        _: &Path,
        _: Option<&str>,
        _: bool,
        _: Option<&Path>,
        _: usize,
    ) -> Result<ExitCode, CliError> {
        Err(refuse())
    }
}
