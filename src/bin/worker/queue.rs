//! Runs read one at a time, in the order they were asked for. The worker has one thread, so runs
//! read together take as long in all as one after another, but each holds its half-read state
//! (the scorer's groups, the seen ids, the sample's growing records) the whole time: four runs of
//! 200,000 groups picked at once held some 80 MB more than one after another. And the first run's
//! figures come as soon as it alone is read.

use crate::worker::current;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

thread_local! {
    /// The tickets of the runs waiting or reading, oldest first: the first reads.
    static QUEUE: RefCell<VecDeque<u64>> = const { RefCell::new(VecDeque::new()) };
    static NEXT: Cell<u64> = const { Cell::new(0) };
}

/// A run's place in the queue, from when it asks to read until it has read and been kept.
pub struct ReadTurn(u64);

impl Drop for ReadTurn {
    fn drop(&mut self) {
        QUEUE.with_borrow_mut(|q| q.retain(|&t| t != self.0));
    }
}

/// Waits for run `run`'s turn to read; `None` when the run moved on (a cancel, a newer score)
/// while it waited.
pub async fn turn(run: u32, generation: u32) -> Option<ReadTurn> {
    let ticket = NEXT.get();
    NEXT.set(ticket + 1);
    QUEUE.with_borrow_mut(|q| q.push_back(ticket));
    let turn = ReadTurn(ticket);
    loop {
        if !current(run, generation) {
            return None;
        }
        if QUEUE.with_borrow(|q| q.front() == Some(&ticket)) {
            return Some(turn);
        }
        crate::loans::wait(20).await;
    }
}
