//! The module's text editor: the CodeMirror editor of `web/editor/` (line
//! numbers, WAT highlighting, undo, search; only the lines in view drawn),
//! which the page loads as the script `editor.js` before its own code.
//! This component keeps it and the page's text in step.

use wasm_bindgen::prelude::*;
use web_sys::Element;
use yew::prelude::*;

/// What the empty editor says.
const HINT: &str = "WAT text, base64 or hex of a .wasm, or drop a .wasm file here; Ctrl+Enter runs";

#[wasm_bindgen]
extern "C" {
    /// A CodeMirror `EditorView`.
    type View;

    #[wasm_bindgen(catch, js_namespace = SymplayEditor, js_name = create)]
    fn create_view(
        parent: &Element,
        text: &str,
        hint: &str,
        on_edit: &Closure<dyn Fn(String, bool)>,
        on_leave: &Closure<dyn Fn()>,
    ) -> Result<View, JsValue>;

    #[wasm_bindgen(js_namespace = SymplayEditor, js_name = setText)]
    fn set_text(view: &View, text: &str);

    #[wasm_bindgen(js_namespace = SymplayEditor)]
    fn destroy(view: &View);
}

#[derive(Properties)]
pub struct EditorProps {
    /// The text the page holds; shown when it differs from the editor's.
    pub text: AttrValue,
    /// The text after an edit, and whether it was a paste or a drop.
    pub on_edit: Callback<(String, bool)>,
    /// The editor lost the focus.
    pub on_leave: Callback<()>,
    /// The editor could not be made: why.
    pub on_failure: Callback<String>,
}

/// The callbacks are new on every render of the page: only the text counts.
impl PartialEq for EditorProps {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

pub enum EditorMsg {
    Edited(String, bool),
    Left,
}

pub struct CodeEditor {
    parent: NodeRef,
    view: Option<View>,
    /// The text the editor holds, as last set or reported.
    shown: AttrValue,
    /// The editor could not be made: it is not tried again.
    failed: bool,
    /// Called by the editor; kept as long as it lives.
    _on_edit: Closure<dyn Fn(String, bool)>,
    _on_leave: Closure<dyn Fn()>,
}

impl Component for CodeEditor {
    type Message = EditorMsg;
    type Properties = EditorProps;

    fn create(ctx: &Context<Self>) -> Self {
        let edited = ctx
            .link()
            .callback(|(text, at_once)| EditorMsg::Edited(text, at_once));
        let left = ctx.link().callback(|()| EditorMsg::Left);
        CodeEditor {
            parent: NodeRef::default(),
            view: None,
            shown: AttrValue::default(),
            failed: false,
            _on_edit: Closure::new(move |text, at_once| edited.emit((text, at_once))),
            _on_leave: Closure::new(move || left.emit(())),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            EditorMsg::Edited(text, at_once) => {
                self.shown = AttrValue::from(text.clone());
                ctx.props().on_edit.emit((text, at_once));
            }
            EditorMsg::Left => ctx.props().on_leave.emit(()),
        }
        // The editor draws itself.
        false
    }

    fn view(&self, _ctx: &Context<Self>) -> Html {
        html! { <div id="source" class="pane editor" ref={self.parent.clone()} /> }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        let text = &ctx.props().text;
        match &self.view {
            Some(view) => {
                if *text != self.shown {
                    set_text(view, text);
                    self.shown = text.clone();
                }
            }
            None => {
                let Some(parent) = self.parent.cast::<Element>().filter(|_| !self.failed) else {
                    return;
                };
                match create_view(&parent, text, HINT, &self._on_edit, &self._on_leave) {
                    Ok(view) => {
                        self.view = Some(view);
                        self.shown = text.clone();
                    }
                    Err(e) => {
                        self.failed = true;
                        ctx.props().on_failure.emit(format!(
                            "the code editor did not start ({}): is editor.js served?",
                            e.as_string().unwrap_or_else(|| format!("{e:?}"))
                        ));
                    }
                }
            }
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some(view) = self.view.take() {
            destroy(&view);
        }
    }
}
