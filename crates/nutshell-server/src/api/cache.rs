//! The fights a process keeps in memory between steps and decisions
//! ([`Cache`]), so a step does not replay the fight's thread; a fight not
//! kept (or kept at an event its thread has moved past) is rebuilt from its
//! events (`api::fight_thread::rebuild`). What is kept is only ever a copy
//! of what the events say.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::fight::Running;

/// How many fights between steps a process keeps in memory.
const CACHE_SIZE: usize = 256;

/// How many fights over a process keeps in memory besides: the last ones
/// to end, which their table still reads (the answer that ended one, the
/// pages showing its end); older ones are rebuilt when read.
const FINISHED_KEPT: usize = 8;

/// Fights between steps or decisions, each with the sequence number of the
/// event it is the state after (a fight whose thread has moved on is
/// rebuilt), and the last few fights to end.
#[derive(Default)]
pub struct Cache {
    fights: Mutex<HashMap<(String, i64), (i64, Running)>>,
    finished: Mutex<HashMap<(String, i64), (i64, Running)>>,
}

impl Cache {
    /// A copy of fight `id` of `room` after event `head`, if kept.
    pub(crate) fn get(&self, room: &str, id: i64, head: i64) -> Option<Running> {
        let key = (room.to_string(), id);
        for kept in [&self.fights, &self.finished] {
            let fights = kept.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((at, fight)) = fights.get(&key)
                && *at == head
            {
                return Some(fight.clone());
            }
        }
        None
    }

    /// Keeps fight `id` as it is after event `head` (among the last few to
    /// end, once over).
    pub(crate) fn put(&self, room: &str, id: i64, head: i64, fight: Running) {
        let key = (room.to_string(), id);
        let over = fight.fight().ending().is_some();
        if over {
            self.fights
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&key);
        }
        let (kept, size) = if over {
            (&self.finished, FINISHED_KEPT)
        } else {
            (&self.fights, CACHE_SIZE)
        };
        let mut fights = kept.lock().unwrap_or_else(|e| e.into_inner());
        if fights.len() >= size && !fights.contains_key(&key) {
            // The fight stepped longest ago goes (it is rebuilt if needed).
            if let Some(oldest) = fights
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
            {
                fights.remove(&oldest);
            }
        }
        fights.insert(key, (head, fight));
    }
}
