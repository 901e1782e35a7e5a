//! The serving process's two runtimes (issue 38): requests that change data are answered on
//! a runtime of their own, whose threads keep the normal priority; everything else (reads,
//! jobs, every connection's input and output) runs on the main runtime, whose threads are
//! made nicer.
//!
//! With 32 readers on two cores a save and its approval took 48 ms (SQLite) and 66 ms
//! (PostgreSQL) at p95 against 10–11 ms alone, even with connections kept for writes and
//! places for reads: their statements and each step between them waited for the processors
//! behind the readers' queries and rendering. The kernel now gives a writer's thread about
//! nine times a reader thread's share of a core. A reader never waits for a writer that is
//! idle, so alone the reads run as fast as before.
//!
//! Nice values can only be raised without privileges, and a thread starts with its
//! creator's: so the writes' runtime is built first, from the process's first thread, and
//! the main runtime's threads lower their own priority as they start (its blocking pool
//! included). Tests answer every request on the test's runtime, as before.

use tokio::runtime::{Builder, Handle, Runtime};

/// How much nicer the main runtime's threads are than the writes' (0 is normal, 19 the
/// nicest): a thread at 10 gets about a ninth of the share of a thread at 0.
pub const READS_NICE: i32 = 10;

/// The main runtime, and a handle to the runtime of requests that change data.
pub struct Runtimes {
    pub main: Runtime,
    pub writes: Handle,
}

/// Builds both runtimes; call from the process's first thread, before any other runtime.
pub fn build() -> std::io::Result<Runtimes> {
    let writes = Builder::new_multi_thread().worker_threads(2).thread_name("tyredesk-write").enable_all().build()?;
    // It serves the process to its end; dropping a runtime inside another's task would panic.
    let writes = Box::leak(Box::new(writes)).handle().clone();
    let main = Builder::new_multi_thread().enable_all().on_thread_start(lower_priority).build()?;
    Ok(Runtimes { main, writes })
}

/// Makes the calling thread nicer ([`READS_NICE`]). On Linux the nice value is the thread's.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take and return plain integers; setpriority changes only
    // the nice value of the calling thread (its own id).
    unsafe {
        let me = libc::gettid();
        if libc::setpriority(libc::PRIO_PROCESS, me as libc::id_t, READS_NICE) != 0 {
            tracing::debug!("cannot lower the priority of a reading thread: {}", std::io::Error::last_os_error());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's nice value (Linux; 0 elsewhere).
    fn nice_of_this_thread() -> i32 {
        #[cfg(target_os = "linux")]
        // SAFETY: as in `lower_priority`; getpriority only reads.
        unsafe {
            libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
        }
        #[cfg(not(target_os = "linux"))]
        0
    }

    #[test]
    fn reads_run_nicer_than_writes() {
        let base = nice_of_this_thread();
        if base != 0 {
            return; // a test run that is itself niced has no normal priority to compare with
        }
        let rts = build().expect("the runtimes");
        let main = rts.main.block_on(rts.main.spawn(async { (nice_of_this_thread(), tokio::task::spawn_blocking(nice_of_this_thread).await.unwrap()) })).unwrap();
        assert_eq!(main, (READS_NICE, READS_NICE), "the main runtime's workers and blocking threads");
        let writes = rts.main.block_on(rts.writes.spawn(async { (nice_of_this_thread(), tokio::task::spawn_blocking(nice_of_this_thread).await.unwrap()) })).unwrap();
        assert_eq!(writes, (0, 0), "the writes' runtime keeps the normal priority, its blocking threads too");
        assert_eq!(nice_of_this_thread(), 0, "building them leaves the calling thread as it was");
    }
}
