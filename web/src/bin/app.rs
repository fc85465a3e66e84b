//! The playground page's binary: mounts the page's yew app.

fn main() {
    yew::Renderer::<symplay_web::page::app::App>::new().render();
}
