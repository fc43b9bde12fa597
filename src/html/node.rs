//! A small element tree, built once and shown two ways: the page mounts it (text set as text,
//! attributes one by one) and the HTML report writes it (text and values escaped), so that a view
//! the worker lays out needs no drawing code of its own in the page.

use super::Html;
use serde::Serialize;

/// One element: its tag, its attributes in order, its text (before its children), its children.
/// Attribute names and tags are always the renderer's own; only text and values may come from a
/// user's files.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Node {
    pub tag: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
    pub kids: Vec<Node>,
}

impl Node {
    pub fn new(tag: &str) -> Node {
        Node {
            tag: tag.to_string(),
            ..Node::default()
        }
    }

    /// `<tag class="class">text</tag>`.
    pub fn el(tag: &str, class: &str, text: impl Into<String>) -> Node {
        let n = Node::new(tag).text(text);
        if class.is_empty() {
            n
        } else {
            n.attr("class", class)
        }
    }

    pub fn attr(mut self, name: &str, value: impl Into<String>) -> Node {
        self.attrs.push((name.to_string(), value.into()));
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Node {
        self.text = text.into();
        self
    }

    pub fn kid(mut self, kid: Node) -> Node {
        self.kids.push(kid);
        self
    }

    pub fn kids(mut self, kids: impl IntoIterator<Item = Node>) -> Node {
        self.kids.extend(kids);
        self
    }

    /// The tree as HTML, every text and value escaped.
    pub fn to_html(&self) -> String {
        let mut h = Html(String::new());
        self.write(&mut h);
        h.0
    }

    pub(super) fn write(&self, h: &mut Html) {
        h.raw("<").raw(&self.tag);
        for (name, value) in &self.attrs {
            h.attr(name, value);
        }
        h.raw(">").text(&self.text);
        for k in &self.kids {
            k.write(h);
        }
        h.raw("</").raw(&self.tag).raw(">");
    }
}

#[cfg(test)]
mod tests {
    use super::Node;

    #[test]
    fn text_and_values_are_escaped_and_names_kept() {
        let n = Node::el("p", "meta", "<b>&")
            .attr("data-run", "\"x\" <y>")
            .kid(Node::new("span").text("'"));
        assert_eq!(
            n.to_html(),
            "<p class=\"meta\" data-run=\"&quot;x&quot; &lt;y&gt;\">&lt;b&gt;&amp;<span>&#39;</span></p>"
        );
    }
}
