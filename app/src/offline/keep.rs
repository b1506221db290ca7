//! An offline log kept for a reload of this tab, so its permalinks (`#seq`) survive one.
//!
//! When a log is opened offline (dropped, picked or pasted) the page puts it — the `File`, or
//! the pasted text as a `Blob`, with its name and the time — in IndexedDB (database
//! [`DB`], store [`STORE`]) under this tab's id, a random id kept in `sessionStorage`
//! ([`TAB_KEY`]): a reload of the same tab finds it, a new tab or another window does not.
//! Opening another log replaces it; "close" forgets it. On load (offline mode) the page
//! reopens the tab's log through the worker and prunes the logs of closed tabs
//! ([`to_prune`]). Keeping is best effort: without IndexedDB or storage quota the log is
//! simply not kept (a console warning), and opening it is never affected.

/// IndexedDB database name.
pub const DB: &str = "hiveterm";
/// Object store of kept logs: key = tab id, value = `{tab, name, at, blob}`.
pub const STORE: &str = "logs";
/// `sessionStorage` key of this tab's id.
pub const TAB_KEY: &str = "hiveterm.tab";
/// A kept log of another tab is forgotten this long (ms) after it was opened.
pub const MAX_AGE_MS: f64 = 24.0 * 3600.0 * 1000.0;
/// Most logs kept, this tab's included.
pub const MAX_KEPT: usize = 4;

/// The tab ids of the kept logs to forget, given every kept log as (tab id, time opened in
/// ms): those of other tabs older than [`MAX_AGE_MS`] (or more than that in the future: a
/// clock set back), and beyond the newest [`MAX_KEPT`]. This tab's log (`tab`) is never
/// pruned: the tab is open and reloads into it.
pub fn to_prune(kept: &[(String, f64)], tab: Option<&str>, now: f64) -> Vec<String> {
    let mine = |t: &String| Some(t.as_str()) == tab;
    let stale = |at: f64| (now - at).abs() > MAX_AGE_MS;
    let room = MAX_KEPT - usize::from(kept.iter().any(|(t, _)| mine(t)));
    // Few entries: count the newer ones that stay rather than sort.
    let newer = |at: f64| {
        kept.iter()
            .filter(|(t, a)| !mine(t) && !stale(*a) && *a > at)
            .count()
    };
    kept.iter()
        .filter(|(t, at)| !mine(t) && (stale(*at) || newer(*at) >= room))
        .map(|(t, _)| t.clone())
        .collect()
}

/// A new tab id from a random number in [0, 1) and the time.
pub fn new_tab_id(random: f64, now: f64) -> String {
    format!("{}-{}", now as u64, (random * 4_294_967_296.0) as u64)
}

pub use imp::{forget, has_tab, keep, restore};

mod imp {
    //! Callbacks rather than futures, and one closure type for all: the page's budget.
    use super::*;
    use crate::worker::protocol::Part;
    use js_sys::{Array, Object, Reflect};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, IdbDatabase, IdbObjectStore, IdbRequest, IdbTransactionMode};

    fn warn(what: &str, e: &JsValue) {
        web_sys::console::warn_2(&what.into(), e);
    }

    fn get(v: &JsValue, k: &str) -> JsValue {
        Reflect::get(v, &k.into()).unwrap_or_default()
    }

    /// Sets `target[handler]` to a function calling `f` with its argument (an event).
    fn set(target: &JsValue, handler: &str, f: impl FnMut(JsValue) + 'static) {
        let f = Closure::<dyn FnMut(JsValue)>::new(f).into_js_value();
        let _ = Reflect::set(target, &handler.into(), &f);
    }

    /// `ok` gets the request's result, `fail` its error.
    fn on(
        req: &IdbRequest,
        mut ok: impl FnMut(JsValue) + 'static,
        mut fail: impl FnMut(JsValue) + 'static,
    ) {
        set(req, "onsuccess", move |e| {
            ok(get(&get(&e, "target"), "result"))
        });
        set(req, "onerror", move |e| {
            fail(get(&get(&e, "target"), "error"))
        });
    }

    fn session() -> Option<web_sys::Storage> {
        web_sys::window()?.session_storage().ok()?
    }

    fn tab() -> Option<String> {
        session()?.get_item(TAB_KEY).ok()?
    }

    /// Whether this tab may have a kept log (it has an id: it kept one once).
    pub fn has_tab() -> bool {
        tab().is_some()
    }

    /// Opens the database for `ok`; `fail` gets why it cannot be.
    fn with_db(mut ok: impl FnMut(IdbDatabase) + 'static, mut fail: impl FnMut(JsValue) + 'static) {
        let req = web_sys::window()
            .ok_or(JsValue::NULL)
            .and_then(|w| w.indexed_db())
            .and_then(|f| f.ok_or_else(|| "no IndexedDB".into()))
            .and_then(|f| f.open_with_u32(DB, 1));
        let req = match req {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        set(&req, "onupgradeneeded", |e| {
            let db: IdbDatabase = get(&get(&e, "target"), "result").unchecked_into();
            let _ = db.create_object_store(STORE);
        });
        on(&req, move |db| ok(db.unchecked_into()), fail);
    }

    /// The store in a new transaction whose failure (quota: at commit) is a warning.
    fn store(db: &IdbDatabase, mode: IdbTransactionMode) -> Result<IdbObjectStore, JsValue> {
        let tx = db.transaction_with_str_and_mode(STORE, mode)?;
        set(&tx, "onabort", |e| {
            warn(
                "hiveterm: a kept log was not written:",
                &get(&get(&e, "target"), "error"),
            );
        });
        tx.object_store(STORE)
    }

    /// Keeps `blob` (named `name`; a session of several files: where each after the first
    /// starts, `parts`) as this tab's log, replacing any other; `done` is called once it is
    /// written, or could not be (a live page then leaves for the kept log).
    pub fn keep(blob: &Blob, name: &str, parts: &[Part], done: impl Fn() + Clone + 'static) {
        let failed = done.clone();
        let fail = move |e: JsValue| {
            warn("hiveterm: the log is not kept for a reload:", &e);
            failed();
        };
        let tab = session().and_then(|s| {
            let t =
                tab().unwrap_or_else(|| new_tab_id(js_sys::Math::random(), js_sys::Date::now()));
            s.set_item(TAB_KEY, &t).ok().map(|_| t)
        });
        let Some(tab) = tab else {
            return fail("no sessionStorage".into());
        };
        let v = Object::new();
        for (k, val) in [
            ("tab", JsValue::from_str(&tab)),
            ("name", name.into()),
            ("at", js_sys::Date::now().into()),
            ("blob", blob.into()),
            (
                "parts",
                serde_json::to_string(parts).unwrap_or_default().into(),
            ),
        ] {
            let _ = Reflect::set(&v, &k.into(), &val);
        }
        let fail2 = fail.clone();
        with_db(
            move |db| {
                let put = store(&db, IdbTransactionMode::Readwrite).and_then(|s| {
                    let tx = s.transaction();
                    let ok = done.clone();
                    set(&tx, "oncomplete", move |_| ok());
                    // The store's `onabort` warns; this lets the page go on all the same.
                    let aborted = done.clone();
                    let on_abort =
                        Closure::<dyn FnMut(JsValue)>::new(move |_| aborted()).into_js_value();
                    let _ = tx.add_event_listener_with_callback("abort", on_abort.unchecked_ref());
                    s.put_with_key(&v, &JsValue::from_str(&tab))
                });
                if let Err(e) = put {
                    fail2(e);
                }
            },
            fail,
        );
    }

    /// Forgets this tab's kept log.
    pub fn forget() {
        let Some(tab) = tab() else { return };
        if let Some(s) = session() {
            let _ = s.remove_item(TAB_KEY);
        }
        let fail = |e: JsValue| warn("hiveterm: the kept log was not forgotten:", &e);
        with_db(
            move |db| {
                let del = store(&db, IdbTransactionMode::Readwrite)
                    .and_then(|s| s.delete(&JsValue::from_str(&tab)));
                if let Err(e) = del {
                    fail(e);
                }
            },
            fail,
        );
    }

    /// Prunes the kept logs of closed tabs, then calls `done` with this tab's (its blob,
    /// name and parts), or `None` (also when they cannot be read).
    pub fn restore(done: impl Fn(Option<(Blob, String, Vec<Part>)>) + Clone + 'static) {
        let d = done.clone();
        let fail = move |e: JsValue| {
            warn("hiveterm: kept logs cannot be read:", &e);
            d(None);
        };
        let f = fail.clone();
        with_db(
            move |db| {
                let req = match store(&db, IdbTransactionMode::Readonly).and_then(|s| s.get_all()) {
                    Ok(r) => r,
                    Err(e) => return f(e),
                };
                let done = done.clone();
                on(
                    &req,
                    move |all| {
                        let all: Array = all.unchecked_into();
                        let tab = tab();
                        let kept: Vec<(String, f64)> = all
                            .iter()
                            .map(|v| {
                                let t = get(&v, "tab").as_string().unwrap_or_default();
                                (t, get(&v, "at").as_f64().unwrap_or(0.0))
                            })
                            .collect();
                        let stale = to_prune(&kept, tab.as_deref(), js_sys::Date::now());
                        if !stale.is_empty()
                            && let Ok(s) = store(&db, IdbTransactionMode::Readwrite)
                        {
                            for t in stale {
                                let _ = s.delete(&t.into());
                            }
                        }
                        let mine = all
                            .iter()
                            .find(|v| tab.is_some() && get(v, "tab").as_string() == tab)
                            .and_then(|v| {
                                let blob = get(&v, "blob").dyn_into::<Blob>().ok()?;
                                let parts = get(&v, "parts")
                                    .as_string()
                                    .and_then(|p| serde_json::from_str(&p).ok())
                                    .unwrap_or_default();
                                let name = get(&v, "name").as_string().unwrap_or_default();
                                Some((blob, name, parts))
                            });
                        done(mine);
                    },
                    f.clone(),
                );
            },
            fail,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: f64 = 3600.0 * 1000.0;

    fn kept(list: &[(&str, f64)]) -> Vec<(String, f64)> {
        list.iter().map(|(t, at)| (t.to_string(), *at)).collect()
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn old_logs_of_other_tabs_are_pruned_and_this_tabs_never() {
        let now = 100.0 * H;
        let k = kept(&[
            ("mine", now - 30.0 * H),
            ("a", now - 25.0 * H),
            ("b", now - 1.0 * H),
        ]);
        assert_eq!(to_prune(&k, Some("mine"), now), vec!["a"]);
        // Without a tab id every old one goes.
        assert_eq!(sorted(to_prune(&k, None, now)), vec!["a", "mine"]);
        // Just under the age: kept.
        let k = kept(&[("a", now - 23.9 * H)]);
        assert!(to_prune(&k, Some("mine"), now).is_empty());
        // A time far in the future (the clock was set back) is stale too.
        let k = kept(&[("a", now + 48.0 * H), ("b", now + 0.1 * H)]);
        assert_eq!(to_prune(&k, None, now), vec!["a"]);
    }

    #[test]
    fn at_most_max_kept_logs_stay_newest_first() {
        let now = 100.0 * H;
        let k = kept(&[
            ("t1", now - 1.0 * H),
            ("t2", now - 2.0 * H),
            ("t3", now - 3.0 * H),
            ("t4", now - 4.0 * H),
            ("t5", now - 5.0 * H),
            ("t6", now - 6.0 * H),
        ]);
        assert_eq!(MAX_KEPT, 4);
        assert_eq!(sorted(to_prune(&k, None, now)), vec!["t5", "t6"]);
        // This tab's log counts, even when it is the oldest, and stays.
        assert_eq!(sorted(to_prune(&k, Some("t6"), now)), vec!["t4", "t5"]);
        // Stale logs do not take a place: four fresh ones stay beside a far-future one.
        let mut k5 = k[..4].to_vec();
        k5.push(("future".into(), now + 48.0 * H));
        assert_eq!(to_prune(&k5, None, now), vec!["future"]);
        // An unknown tab id (nothing kept yet) leaves the newest four.
        assert_eq!(sorted(to_prune(&k, Some("new"), now)), vec!["t5", "t6"]);
        assert!(to_prune(&[], Some("x"), now).is_empty());
    }

    #[test]
    fn tab_ids_differ_by_random_and_time() {
        assert_ne!(new_tab_id(0.1, 5.0), new_tab_id(0.2, 5.0));
        assert_ne!(new_tab_id(0.1, 5.0), new_tab_id(0.1, 6.0));
        assert!(!new_tab_id(0.999, 1e13).is_empty());
    }
}
