//! What the tests that run the `uoanim` program share.

use std::process::Command;

/// The tool's command. With `UOANIM_TEST_RUNNER` set (a command and its
/// arguments, separated by spaces: `qemu-aarch64 -L /usr/aarch64-linux-gnu`
/// for the aarch64 build, whose programs the host runs only through qemu),
/// the tool is run by it, as cargo runs the test program itself.
pub fn tool() -> Command {
    let runner = std::env::var("UOANIM_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_ascii_whitespace();
    match words.next() {
        Some(program) => {
            let mut c = Command::new(program);
            c.args(words).arg(env!("CARGO_BIN_EXE_uoanim"));
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_uoanim")),
    }
}
