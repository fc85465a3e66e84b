//! The page's browser side effects: the address bar, the clipboard, file
//! reading, downloads, scrolling and timers. Each failure is a message, never a panic.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::KeyboardEvent;

fn window() -> Result<web_sys::Window, String> {
    web_sys::window().ok_or_else(|| "no browser window".to_string())
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// The URL fragment, with its `#`, or empty.
pub fn fragment() -> String {
    window()
        .and_then(|w| w.location().hash().map_err(|e| describe(&e)))
        .unwrap_or_default()
}

/// Calls `on_change` when the fragment changes without a reload (a link
/// pasted in the address bar of the open page); the closure must be kept.
pub fn on_fragment_change(on_change: impl Fn() + 'static) -> Option<Closure<dyn Fn()>> {
    let closure = Closure::<dyn Fn()>::new(on_change);
    web_sys::window()?
        .add_event_listener_with_callback("hashchange", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(closure)
}

/// Calls `on_escape` when Escape is pressed anywhere on the page, wherever
/// the focus is (none after a button that started a run was disabled);
/// the closure must be kept.
pub fn on_escape(on_escape: impl Fn() + 'static) -> Option<Closure<dyn Fn(KeyboardEvent)>> {
    let closure = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
        // An element that took Escape for itself (the tree letting go of
        // its selection) has said so.
        if e.key() == "Escape" && !e.default_prevented() {
            on_escape();
        }
    });
    web_sys::window()?
        .add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(closure)
}

/// Whether a new address replaces the current history entry or follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    Replace,
    /// Back returns to the address before.
    Push,
}

/// Puts `fragment` in the address bar without a reload (none when empty);
/// gives the full link.
pub fn set_fragment(fragment: &str, history: History) -> Result<String, String> {
    let window = window()?;
    let location = window.location();
    let href = location.href().map_err(|e| describe(&e))?;
    let base = href.split('#').next().unwrap_or(&href);
    let link = if fragment.is_empty() {
        base.to_string()
    } else {
        format!("{base}#{fragment}")
    };
    window
        .history()
        .and_then(|h| match history {
            History::Replace => h.replace_state_with_url(&JsValue::NULL, "", Some(&link)),
            History::Push => h.push_state_with_url(&JsValue::NULL, "", Some(&link)),
        })
        .map_err(|e| format!("cannot set the address: {}", describe(&e)))?;
    Ok(link)
}

/// Where the page keeps the user's work in this browser.
const WORK_KEY: &str = "symplay.work";

fn storage() -> Result<web_sys::Storage, String> {
    window()?
        .local_storage()
        .map_err(|e| describe(&e))?
        .ok_or_else(|| "this browser keeps no local storage".to_string())
}

/// The work saved in this browser, if any.
pub fn saved_work() -> Option<String> {
    storage().ok()?.get_item(WORK_KEY).ok()?
}

/// Saves the work in this browser, or says why it could not (a module too
/// large for the browser's quota, storage turned off); an older copy is
/// then removed, so that a reload does not bring back stale work.
pub fn save_work(json: &str) -> Result<(), String> {
    let storage = storage()?;
    storage.set_item(WORK_KEY, json).map_err(|e| {
        let _ = storage.remove_item(WORK_KEY);
        describe(&e)
    })
}

/// Calls `on_hide` when the page is left, or hidden or shown again (a
/// phone may end a page in the background without `pagehide`): the last
/// moments to save; the closure must be kept.
pub fn on_page_hide(on_hide: impl Fn() + 'static) -> Option<Closure<dyn Fn()>> {
    let closure = Closure::<dyn Fn()>::new(on_hide);
    let window = web_sys::window()?;
    window
        .add_event_listener_with_callback("pagehide", closure.as_ref().unchecked_ref())
        .ok()?;
    window
        .document()?
        .add_event_listener_with_callback("visibilitychange", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(closure)
}

/// Copies `text` to the clipboard, or says why it could not.
pub async fn copy(text: &str) -> Result<(), String> {
    let navigator = window()?.navigator();
    // `navigator.clipboard` is missing outside secure contexts.
    let present = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| c.is_object());
    if !present {
        return Err("no clipboard here".into());
    }
    JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .map(|_| ())
        .map_err(|e| format!("the browser refused: {}", describe(&e)))
}

/// The bytes of a file the user gave.
pub async fn read_file(file: web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {}", file.name(), describe(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Offers `text` as a JSON file named `name`.
pub fn download_json(name: &str, text: &str) -> Result<(), String> {
    let failed = |e: JsValue| format!("cannot download: {}", describe(&e));
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let document = window()?
        .document()
        .ok_or_else(|| "no document".to_string())?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(failed)?
        .unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // Freed a little later: some browsers read the URL after the click.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    Ok(())
}

/// Scrolls `container` (positioned, and scrollable) so that its first
/// descendant matching `selector` is in the middle, without moving the page.
pub fn scroll_to_middle(container: &web_sys::Element, selector: &str) {
    let Ok(Some(target)) = container.query_selector(selector) else {
        return;
    };
    let Ok(target) = target.dyn_into::<web_sys::HtmlElement>() else {
        return;
    };
    container.set_scroll_top(target.offset_top() - container.client_height() / 2);
}

/// Scrolls the page (and any pane around it) so that the element with id
/// `id` starts at the top of the view.
pub fn scroll_to_top_of(id: &str) {
    if let Some(element) = window()
        .ok()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        element.scroll_into_view();
    }
}

/// Calls `f` once, `ms` milliseconds from now.
pub fn after(ms: i32, f: impl FnOnce() + 'static) -> Result<(), String> {
    let callback = Closure::once_into_js(f);
    window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms)
        .map(|_| ())
        .map_err(|e| format!("cannot set a timer: {}", describe(&e)))
}
