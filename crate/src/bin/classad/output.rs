//! Printing to standard output that ends the program quietly when the
//! reader has gone away (`classad … | head`), instead of panicking on the
//! broken pipe. `println!` and `print!` are redefined for the whole binary
//! on top of [`write_stdout`].

/// Write to standard output; exit 0 if the reader has gone away.
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write as _;
    if std::io::stdout().write_fmt(args).is_err() {
        std::process::exit(0);
    }
}

macro_rules! println {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

macro_rules! print {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!($($arg)*))
    };
}
