//! The clustered block as an element tree (`Node`): the planning sentence and each mean figure's
//! row. The page mounts it (the worker lays it out) and the HTML report writes it, so both show
//! the same words.

use super::node::Node;
use crate::report::clustered::Clustered;
use crate::report::planning;

/// The sentence and the table of a run's clustered figures.
pub fn tree(c: &Clustered) -> Node {
    let plan = planning::of(c);
    const HEAD: [&str; 6] = [
        "figure",
        "value",
        "95% interval",
        "detectable (80% power)",
        "design effect",
        "items to halve it",
    ];
    let head = HEAD
        .iter()
        .enumerate()
        .map(|(i, h)| Node::el("th", if i > 0 { "num" } else { "" }, *h).attr("scope", "col"));
    let rows = plan.rows.iter().map(|row| {
        Node::new("tr")
            .attr("data-figure", row.figure.clone())
            .attr("data-se", row.se.to_string())
            .attr("data-mde", row.mde.to_string())
            .kid(Node::el("th", "", row.figure.clone()).attr("scope", "row"))
            // Each cell names its column, for the stacked rows of a narrow screen.
            .kids(
                row.cells
                    .iter()
                    .zip(&HEAD[1..])
                    .map(|(c, h)| Node::el("td", "num", c.clone()).attr("data-label", *h)),
            )
    });
    let table = Node::el("table", "figures planning stack", "")
        .kid(Node::new("thead").kid(Node::new("tr").kids(head)))
        .kid(Node::new("tbody").kids(rows));
    Node::new("div")
        .kid(Node::el("p", "", plan.sentence).attr("data-testid", "planning-sentence"))
        .kid(Node::el("div", "scroll", "").kid(table))
}
