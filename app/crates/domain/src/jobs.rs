//! The one background job queue (DESIGN §9, docs/decisions/operations.md "One job queue"):
//! every job is a row of one table, in a queue that names its family, with one state
//! machine, one way to claim, beat and take over, and one worker loop per server process.

/// A job's family. Each has its own slot in a process's worker (a long report does not hold
/// a Xero send back), and jobs of one family run one at a time per process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Queue {
    /// A report written to an xlsx file (`kind` is the report's code).
    Report,
    /// An import of a workbook (`kind` is the import's code, `import-…`).
    Import,
    /// A call to Xero (`kind` is `send`, `recall` or `balance`).
    Xero,
    /// An e-mail through the company's SMTP relay (`kind` is the document's code, `params`
    /// the `emails` row).
    Email,
    /// A document sent to an IPP printer (`kind` is `print`; the `print_jobs` row beside it
    /// names the sheets, the variant and the printer).
    Print,
}

impl Queue {
    pub const ALL: [Queue; 5] = [Queue::Report, Queue::Import, Queue::Xero, Queue::Email, Queue::Print];

    /// The word stored in `jobs.queue`.
    pub const fn code(self) -> &'static str {
        match self {
            Queue::Report => "report",
            Queue::Import => "import",
            Queue::Xero => "xero",
            Queue::Email => "email",
            Queue::Print => "print",
        }
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|q| q.code() == code)
    }

    /// The worker slot the queue shares: reports and imports write files from the same
    /// data and take turns (one at a time per process, as before they shared a table);
    /// Xero calls wait on Xero and its rate budget, not on this machine; what leaves the
    /// building waits on the relay (e-mails) or the printer (print jobs), each in its own
    /// slot, so a slow relay never holds a print job at the counter, nor a printer an e-mail.
    pub const fn slot(self) -> Slot {
        match self {
            Queue::Report | Queue::Import => Slot::Files,
            Queue::Xero => Slot::Xero,
            Queue::Email => Slot::Mail,
            Queue::Print => Slot::Print,
        }
    }
}

/// A slot of the worker: the queues whose jobs run one at a time per process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    Files,
    Xero,
    /// E-mails through the company's relay.
    Mail,
    /// Documents sent to printers.
    Print,
}

impl Slot {
    pub const ALL: [Slot; 4] = [Slot::Files, Slot::Xero, Slot::Mail, Slot::Print];

    /// The queues a worker of this slot claims from.
    pub fn queues(self) -> Vec<Queue> {
        Queue::ALL.into_iter().filter(|q| q.slot() == self).collect()
    }
}

/// A job's state, the same for every queue (spec §3 Report job; `state` of `GET /api/reports`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    Queued,
    Running,
    Done,
    Failed,
    Cancelled,
}

impl JobState {
    pub const fn as_i32(self) -> i32 {
        match self {
            JobState::Queued => 0,
            JobState::Running => 1,
            JobState::Done => 2,
            JobState::Failed => 3,
            JobState::Cancelled => 4,
        }
    }

    pub const fn from_i32(n: i32) -> Option<Self> {
        match n {
            0 => Some(JobState::Queued),
            1 => Some(JobState::Running),
            2 => Some(JobState::Done),
            3 => Some(JobState::Failed),
            4 => Some(JobState::Cancelled),
            _ => None,
        }
    }

    /// The API's word.
    pub const fn code(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    /// The Download Center's word.
    pub const fn label(self) -> &'static str {
        match self {
            JobState::Queued => "Queued",
            JobState::Running => "Running",
            JobState::Done => "Done",
            JobState::Failed => "Failed",
            JobState::Cancelled => "Cancelled",
        }
    }

    /// Still to finish: a queued or running job.
    pub const fn is_active(self) -> bool {
        matches!(self, JobState::Queued | JobState::Running)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_queue_has_one_code_and_one_slot() {
        for q in Queue::ALL {
            assert_eq!(Queue::from_code(q.code()), Some(q));
            assert!(q.slot().queues().contains(&q));
        }
        assert_eq!(Queue::from_code("mail"), None);
    }

    #[test]
    fn reports_and_imports_take_turns_and_xero_runs_beside_them() {
        assert_eq!(Slot::Files.queues(), vec![Queue::Report, Queue::Import]);
        assert_eq!(Slot::Xero.queues(), vec![Queue::Xero]);
        assert_eq!(Slot::Mail.queues(), vec![Queue::Email]);
        assert_eq!(Slot::Print.queues(), vec![Queue::Print]);
    }

    #[test]
    fn job_states_round_trip_and_only_queued_and_running_are_active() {
        for n in 0..5 {
            let s = JobState::from_i32(n).unwrap();
            assert_eq!(s.as_i32(), n);
            assert_eq!(s.is_active(), n < 2);
        }
        assert_eq!(JobState::from_i32(5), None);
    }
}
