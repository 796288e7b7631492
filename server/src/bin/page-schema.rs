//! Writes the page's schema, `server/web/schema.js`, from the protos
//! (`baffle_server::web::schema`): `cargo run -p baffle-server --bin page-schema`.

use std::path::Path;
use std::process::ExitCode;

use baffle_server::web::schema;

fn main() -> ExitCode {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(schema::PATH);
    let written = schema::page_schema()
        .map_err(|e| e.to_string())
        .and_then(|text| {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
        });
    match written {
        Ok(()) => {
            eprintln!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("page-schema: {e}");
            ExitCode::FAILURE
        }
    }
}
