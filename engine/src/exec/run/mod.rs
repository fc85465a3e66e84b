//! Running a program.

mod slice;
