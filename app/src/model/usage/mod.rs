//! The usage page's pure parts (`/usage`, issue 50): `GET /api/usage`'s answer typed
//! (docs/API.md), its grouping ([`By`]: day, agent, model, project) and where it is asked, the
//! table's lines ([`UsageLine`]: sessions, tokens, the cost the logs state and the price
//! table's estimate in columns apart, the sessions of unknown cost with their models of no
//! price named, the sum), and the page's keys as a reducer ([`UsageNav`]: `d` `a` `m` `p`
//! group by, `j`/`k` the row).

use crate::model::fleet::{short_project, tokens_text};
use crate::model::summary::dollars;

#[cfg(test)]
mod tests;

/// The usage page's path.
pub const PATH: &str = "/usage";

/// Whether `path` is the usage page's.
pub fn route(path: &str) -> bool {
    path.trim_end_matches('/') == PATH
}

pub use contract::usage::{By, Usage, UsageGroup};

/// A grouping's key on the page: the first letter of its name.
pub fn by_key(by: By) -> char {
    by.name().chars().next().unwrap_or('d')
}

/// The grouping a page's query string asks for (`?by=agent`), else by day.
pub fn by_of_search(search: &str) -> By {
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("by="))
        .and_then(By::parse)
        .unwrap_or_default()
}

/// `GET /api/usage` grouped by `by` (relative to the page, as the index's reads are).
pub fn api_url(by: By) -> String {
    format!("api/usage?by={}", by.name())
}

/// The usage page grouped by `by`, keeping the page's `token` when it has one.
pub fn page_url(by: By, token: Option<&str>) -> String {
    match token {
        Some(t) => format!("{PATH}?by={}&token={t}", by.name()),
        None => format!("{PATH}?by={}", by.name()),
    }
}

/// One line of the table, as it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageLine {
    /// The group (a project's last path component; `(unknown)` when the logs do not say).
    pub key: String,
    /// The whole key, when `key` is shorter (a project's path).
    pub title: Option<String>,
    pub sessions: String,
    /// Input, output, cache read, cache write.
    pub tokens: [String; 4],
    /// What the logs state: `$0.0211`, `—`.
    pub stated: String,
    /// The estimate: `≈ $0.1167`, `—`.
    pub estimated: String,
    /// Sessions of unknown cost: `2 · gpt-x, local-7`, `—`.
    pub unknown: String,
    /// The sum: `$0.0211`, `≈ $0.1378` when part of it is an estimate, `unknown`.
    pub cost: String,
}

impl UsageLine {
    /// A group's line; `by` says how its key reads.
    pub fn of(by: By, g: &UsageGroup) -> UsageLine {
        let (key, title) = match (&g.key, by) {
            (None, _) => ("(unknown)".to_owned(), None),
            (Some(p), By::Project) if short_project(p) != p.as_str() => {
                (short_project(p).to_owned(), Some(p.clone()))
            }
            (Some(k), _) => (k.clone(), None),
        };
        let dash = || "—".to_owned();
        let unknown = match (g.cost_unknown, g.unpriced_models.as_slice()) {
            (0, _) => dash(),
            (n, []) => n.to_string(),
            (n, models) => format!("{n} · {}", models.join(", ")),
        };
        UsageLine {
            key,
            title,
            sessions: g.sessions.to_string(),
            tokens: [
                g.tokens.input,
                g.tokens.output,
                g.tokens.cache_read,
                g.tokens.cache_creation,
            ]
            .map(tokens_text),
            stated: g.cost_stated.map_or_else(dash, dollars),
            estimated: g
                .cost_estimated
                .map_or_else(dash, |c| format!("≈ {}", dollars(c))),
            unknown,
            cost: match g.cost {
                None => "unknown".to_owned(),
                Some(c) if g.cost_estimated.is_some() => format!("≈ {}", dollars(c)),
                Some(c) => dollars(c),
            },
        }
    }

    /// The lines of an answer's groups, in its order (the server's: by key, unknown last),
    /// and its total's.
    pub fn all(u: &Usage) -> (Vec<UsageLine>, UsageLine) {
        let lines = u.groups.iter().map(|g| UsageLine::of(u.by, g)).collect();
        let mut total = UsageLine::of(u.by, &u.total);
        total.key = "total".to_owned();
        total.title = None;
        (lines, total)
    }
}

/// What a key does on the usage page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// Group by this.
    Group(By),
    /// The next row (`j`, `↓`).
    Down,
    /// The previous row (`k`, `↑`).
    Up,
}

impl Key {
    /// The key `key` (a `KeyboardEvent.key`), if the page takes it.
    pub fn of(key: &str) -> Option<Key> {
        match key {
            "j" | "ArrowDown" => Some(Key::Down),
            "k" | "ArrowUp" => Some(Key::Up),
            _ => By::ALL
                .into_iter()
                .find(|b| key.len() == 1 && key.starts_with(by_key(*b)))
                .map(Key::Group),
        }
    }
}

/// The page's state: the grouping and the current row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UsageNav {
    pub by: By,
    /// The current row of the table's `rows`, if any.
    pub current: Option<usize>,
}

impl UsageNav {
    /// A key pressed over a table of `rows` lines; answers whether the grouping changed (then
    /// the answer is asked again and no row is current).
    pub fn press(&mut self, key: Key, rows: usize) -> bool {
        match key {
            Key::Group(by) if by != self.by => {
                *self = UsageNav { by, current: None };
                true
            }
            Key::Group(_) => false,
            Key::Down if rows > 0 => {
                self.current = Some(self.current.map_or(0, |i| (i + 1).min(rows - 1)));
                false
            }
            Key::Up if rows > 0 => {
                self.current = Some(self.current.map_or(rows - 1, |i| i.saturating_sub(1)));
                false
            }
            Key::Down | Key::Up => false,
        }
    }
}
