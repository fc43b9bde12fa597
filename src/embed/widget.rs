//! The Rust half of `<scorelens-report>`. The element (www/embed/scorelens.js) makes the shadow
//! root and calls `mountReport`; this draws the widget into it, fetches `src` (same origin
//! only) or waits for a drop, scores in the page, and reports each state back to the element:
//! `data-state` on the host (`empty`, `loading`, `ready`, `error`) and `notify(state, detail)`.

use super::api::to_js;
use super::failure::Failure;
use super::fetch::fetch_source;
use super::input::Source;
use super::panic;
use super::rank::{rank, Ranked};
use super::run::{run, Settings};
use super::views::Embed;
use crate::metrics::bootstrap::ClusterBy;
use crate::report::groups::keep_largest;
use crate::web::protocol::{Text, GROUPS_HELD};
use crate::web::state::{Binning, Toggles};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::any::Any;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, HtmlElement, ShadowRoot};

/// The `view` attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    Summary,
    Reliability,
    Ic,
    RewardBench,
    Full,
    /// `src` is a list of files, each one run, ranked (src/embed/rank.rs).
    Leaderboard,
}

impl ViewKind {
    fn parse(v: Option<&str>) -> ViewKind {
        match v.map(str::trim) {
            Some("summary") => ViewKind::Summary,
            Some("reliability") => ViewKind::Reliability,
            Some("ic") => ViewKind::Ic,
            Some("rewardbench") => ViewKind::RewardBench,
            Some("leaderboard") => ViewKind::Leaderboard,
            Some("full") | Some("") | None => ViewKind::Full,
            Some(other) => {
                warn(&format!("view=\"{other}\" is not one of summary, reliability, ic, rewardbench, leaderboard, full; showing full"));
                ViewKind::Full
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ViewKind::Summary => "summary",
            ViewKind::Reliability => "reliability",
            ViewKind::Ic => "ic",
            ViewKind::RewardBench => "rewardbench",
            ViewKind::Full => "full",
            ViewKind::Leaderboard => "leaderboard",
        }
    }
}

/// The `theme` attribute: follow the system (the default), or force light or dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

impl Theme {
    fn parse(v: Option<&str>) -> Theme {
        match v.map(str::trim) {
            Some("light") => Theme::Light,
            Some("dark") => Theme::Dark,
            _ => Theme::Auto,
        }
    }

    /// The root's `data-theme`, which style.rs maps to a palette.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

fn binning(v: Option<&str>) -> Binning {
    match v.map(str::trim) {
        Some("mass") | Some("equal-mass") => Binning::EqualMass,
        _ => Binning::EqualWidth,
    }
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("scorelens: {message}")));
}

/// Where a widget is.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// No `src` and nothing dropped yet.
    Empty,
    /// Scoring; the text names what.
    Loading(String),
    Scored(Arc<Shown>),
    /// `view="leaderboard"`: the runs ranked.
    Ranked(Arc<Ranked>),
    Failed(Arc<Failure>),
}

/// A run scored in the widget: its report (the largest groups held, as the page holds them), the
/// report's JSON as the CLI writes it (every group), and how many groups the run has.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub report: Arc<crate::Report>,
    pub json: Text,
    pub groups_total: u64,
}

/// The attributes as signals, and the widget's status.
#[derive(Clone, Copy)]
pub struct Props {
    pub src: RwSignal<Option<String>>,
    pub profile: RwSignal<Option<String>>,
    /// The `cluster` attribute (the CLI's `--cluster`).
    pub cluster: RwSignal<Option<String>>,
    /// The `group-by` attribute (the CLI's `--group-by`).
    pub group_by: RwSignal<Option<String>>,
    pub view: RwSignal<ViewKind>,
    pub theme: RwSignal<Theme>,
    pub status: RwSignal<Status>,
}

/// What to score.
enum Job {
    Url(String),
    Files(Vec<File>),
    /// A leaderboard: each URL one run.
    Urls(Vec<String>),
    /// A leaderboard: each file one run.
    Each(Vec<File>),
}

/// One mounted widget; the element frees it when it leaves the document.
#[wasm_bindgen]
pub struct Widget {
    props: Props,
    toggles: Toggles,
    // Dropped in this order: the view first, then the reactive owner of its signals.
    _mount: Box<dyn Any>,
    _owner: Owner,
    _watch: panic::Watch,
    mount: HtmlElement,
}

#[wasm_bindgen]
impl Widget {
    /// An observed attribute changed (`null`: removed).
    #[wasm_bindgen(js_name = attributeChanged)]
    pub fn attribute_changed(&self, name: &str, value: Option<String>) {
        let v = value.as_deref();
        let text = value.clone().filter(|s| !s.trim().is_empty());
        match name {
            "src" => self.props.src.set(text),
            "profile" => self.props.profile.set(text),
            "cluster" => self.props.cluster.set(text),
            "group-by" => self.props.group_by.set(text),
            "view" => self.props.view.set(ViewKind::parse(v)),
            "theme" => self.props.theme.set(Theme::parse(v)),
            "binning" => self.toggles.binning.set(binning(v)),
            _ => {}
        }
    }
}

impl Drop for Widget {
    fn drop(&mut self) {
        self.mount.remove();
    }
}

fn attr(host: &HtmlElement, name: &str) -> Option<String> {
    host.get_attribute(name).filter(|s| !s.trim().is_empty())
}

async fn sources(job: Job) -> Result<Vec<Source>, Failure> {
    Ok(match job {
        Job::Url(url) => vec![fetch_source(&url).await?],
        Job::Urls(urls) => {
            let mut all = Vec::with_capacity(urls.len());
            for url in urls {
                all.push(fetch_source(&url).await?);
            }
            all
        }
        Job::Files(files) | Job::Each(files) => files.into_iter().map(Source::file).collect(),
    })
}

/// The job's result as the widget's status, and what its event carries.
async fn do_job(job: Job, settings: Settings) -> Result<(Status, JsValue), Failure> {
    if matches!(job, Job::Urls(_) | Job::Each(_)) {
        let ranked = rank(sources(job).await?, &settings).await?;
        let detail = to_js(&ranked.leaderboard)?;
        return Ok((Status::Ranked(Arc::new(ranked)), detail));
    }
    let s = score_job(job, settings).await?;
    let detail = to_js(s.report.as_ref()).unwrap_or(JsValue::UNDEFINED);
    Ok((Status::Scored(Arc::new(s)), detail))
}

async fn score_job(job: Job, settings: Settings) -> Result<Shown, Failure> {
    let sources = sources(job).await?;
    let o = run(sources, &settings).await?;
    let json = Text::new(&(o.report.to_json() + "\n"));
    // The widget draws the page's views: it holds the largest groups as the page does.
    let mut report = o.report;
    let groups_total = keep_largest(&mut report, GROUPS_HELD);
    Ok(Shown {
        report: Arc::new(report),
        json,
        groups_total,
    })
}

/// Tells the host element: `data-state`, and `notify(state, detail)` for its events.
fn tell(host: &HtmlElement, notify: &js_sys::Function, state: &str, detail: &JsValue) {
    let _ = host.set_attribute("data-state", state);
    if let Err(e) = notify.call2(&JsValue::NULL, &JsValue::from_str(state), detail) {
        web_sys::console::error_2(&"scorelens: an event listener failed".into(), &e);
    }
}

/// Scores whenever `src`, `profile` or the dropped files change, and tells the host; returns what
/// the drop zone calls with the files of a drop.
fn scorer(props: Props, host: HtmlElement, notify: js_sys::Function) -> Callback<Vec<File>> {
    let dropped = StoredValue::new_local(Vec::<File>::new());
    let drops = RwSignal::new(0u32);
    let generation = StoredValue::new(0u32);
    let ranking = Memo::new(move |_| props.view.get() == ViewKind::Leaderboard);
    let (h, n) = (host, notify);
    // Scores again whenever `src`, `profile`, `cluster`, `group-by` or the dropped files change.
    Effect::new(move |_| {
        let (src, profile, ranking) = (props.src.get(), props.profile.get(), ranking.get());
        let (cluster, group_by) = (props.cluster.get(), props.group_by.get());
        drops.track();
        let job = match src {
            Some(list) if ranking => Job::Urls(list.split_whitespace().map(String::from).collect()),
            Some(url) => Job::Url(url),
            None => match dropped.try_with_value(|f| f.clone()).unwrap_or_default() {
                files if !files.is_empty() && ranking => Job::Each(files),
                files if !files.is_empty() => Job::Files(files),
                _ => {
                    props.status.set(Status::Empty);
                    return tell(&h, &n, "empty", &JsValue::UNDEFINED);
                }
            },
        };
        let what = match &job {
            Job::Url(url) => url.clone(),
            Job::Urls(urls) => urls.join(", "),
            Job::Files(files) | Job::Each(files) => {
                files.iter().map(File::name).collect::<Vec<_>>().join(", ")
            }
        };
        let current = generation.get_value().wrapping_add(1);
        generation.set_value(current);
        props.status.set(Status::Loading(what));
        tell(&h, &n, "loading", &JsValue::UNDEFINED);
        let settings = Settings {
            profile,
            cluster: cluster.as_deref().and_then(ClusterBy::parse),
            group_by,
            ..Settings::default()
        };
        let (h, n) = (h.clone(), n.clone());
        spawn_local(async move {
            let result = do_job(job, settings).await;
            // A newer job, or the widget is gone: this result is not wanted.
            if generation.try_get_value() != Some(current) {
                return;
            }
            let (status, state, detail) = match result {
                Ok((status, detail)) => (status, "ready", detail),
                Err(f) => {
                    let detail = f.to_js();
                    (Status::Failed(Arc::new(f)), "error", detail)
                }
            };
            if props.status.try_set(status).is_some() {
                return;
            }
            // Let the view draw the result before the page hears of it.
            leptos::task::tick().await;
            tell(&h, &n, state, &detail);
        });
    });
    Callback::new(move |files: Vec<File>| {
        if dropped.try_set_value(files).is_none() {
            drops.update(|n| *n = n.wrapping_add(1));
        }
    })
}

/// Draws a widget into `shadow` for the element `host`, which it reads attributes from.
#[wasm_bindgen(js_name = mountReport)]
pub fn mount_report(
    shadow: ShadowRoot,
    host: HtmlElement,
    notify: js_sys::Function,
) -> Result<Widget, JsValue> {
    panic::install();
    if let Some(message) = panic::stopped() {
        return Err(panic::internal_error(&message).to_js());
    }
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("scorelens: no document")?;
    let mount: HtmlElement = document.create_element("div")?.dyn_into()?;
    mount.set_class_name("sl-mount");
    shadow.append_child(&mount)?;
    let watch = panic::watch_notify(notify.clone());
    let owner = Owner::new();
    let (props, toggles, view) = owner.with(|| {
        let toggles = Toggles::default();
        toggles
            .binning
            .set(binning(attr(&host, "binning").as_deref()));
        let props = Props {
            src: RwSignal::new(attr(&host, "src")),
            profile: RwSignal::new(attr(&host, "profile")),
            cluster: RwSignal::new(attr(&host, "cluster")),
            group_by: RwSignal::new(attr(&host, "group-by")),
            view: RwSignal::new(ViewKind::parse(host.get_attribute("view").as_deref())),
            theme: RwSignal::new(Theme::parse(host.get_attribute("theme").as_deref())),
            status: RwSignal::new(Status::Empty),
        };
        // Inside `mount_to`, which starts Leptos's executor that the effect and tasks run on.
        let view = leptos::mount::mount_to(mount.clone(), move || {
            provide_context(toggles);
            let on_files = scorer(props, host, notify.clone());
            view! { <Embed props=props on_files=on_files /> }
        });
        (props, toggles, view)
    });
    Ok(Widget {
        props,
        toggles,
        _mount: Box::new(view),
        _owner: owner,
        _watch: watch,
        mount,
    })
}
