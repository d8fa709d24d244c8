//! A net file's node sections, to list one fabric's nodes in another order (as
//! ibnetdiscover started from another host would): shared by the tests that check that
//! routes do not depend on that order.

/// The node sections of a net file, in the file's order, and what precedes them.
pub fn sections(net: &str) -> (String, Vec<String>) {
    let mut body: Vec<String> = net
        .split("\n\n")
        .map(str::to_owned)
        .filter(|s| !s.trim().is_empty())
        .collect();
    let head = if body.first().is_some_and(|s| s.starts_with('#')) {
        body.remove(0)
    } else {
        String::new()
    };
    (head, body)
}

/// A net file of `head` and the node sections `body`, in that order.
pub fn join(head: &str, body: &[String]) -> String {
    let mut out = String::from(head);
    out.push_str("\n\n");
    for s in body {
        out.push_str(s);
        out.push_str("\n\n");
    }
    out
}
