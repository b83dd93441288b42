//! What the table says about the shown position and its moves, and the threat view.

use tns_board::Move;
use tns_tablebase::{MoveEffect, Value, Verdict};

use crate::App;
use crate::board_view::Marks;
use crate::wording::plies;

impl App {
    /// The tablebase's verdict on the shown position (in review, the one looked at), when a table is loaded and holds it:
    /// "Sheep win in 23", "Tigers win in 4" or "Draw"; in the placement phase, where the
    /// layers are built, "Tigers win", "Sheep win" or "Draw" (the layers keep no distances).
    /// A table that fails to answer (a damaged file) says so here.
    pub fn verdict(&self) -> Option<String> {
        let board = self.shown_board();
        let verdict = match self.table.loaded.as_ref()?.verdict(board) {
            Ok(v) => v,
            Err(
                tns_tablebase::TablebaseError::NoLayer(_)
                | tns_tablebase::TablebaseError::GameOver(_),
            ) => {
                return None;
            }
            Err(e) => return Some(format!("the tablebase failed: {e}")),
        };
        let side = board.side_to_move();
        // One wording for decided positions everywhere on screen: "Tigers win in 18 plies".
        Some(match verdict.value {
            Some(tns_tablebase::Value::Win(n)) => {
                format!("{} win in {}", side.plural(), plies(i32::from(n)))
            }
            Some(tns_tablebase::Value::Loss(n)) => {
                format!("{} win in {}", side.other().plural(), plies(i32::from(n)))
            }
            _ => verdict.describe(side),
        })
    }

    /// Turns the analysis marks on or off; without a table there is nothing to mark with.
    pub(crate) fn toggle_analysis(&mut self) {
        if self.table.loaded.is_none() {
            self.view.show_analysis = false;
            self.message = "the analysis needs the table: B builds the endgame table in about a \
                            minute (or start with --tablebase DIR)"
                .into();
            return;
        }
        self.view.show_analysis = !self.view.show_analysis;
        let holds = self.table.loaded.as_ref().is_some_and(|t| t.verdicts(self.board()).is_ok());
        self.message = match (self.view.show_analysis, holds) {
            (false, _) => "analysis off".into(),
            (true, true) => {
                "analysis on: green keeps the result (in a lost game: the longest defence), grey loses \
                 sooner, yellow gives up a win, red loses (m hides it)"
                    .into()
            }
            (true, false) if self.board().in_hand() > 0 => {
                "analysis on, but this table holds only the movement phase: the marks come once \
                 every sheep is placed (the placement needs the whole table, `tns-tablebase \
                 build --placement`)"
                    .into()
            }
            (true, false) => "analysis on, but the table does not hold this position".into(),
        };
    }

    /// The moves the analysis judges: those of the selected piece (or every placement), each
    /// with its verdict and its effect on the result, best first. Empty when the analysis is
    /// off, in review, after the game, or where the table does not hold the position (the
    /// status line says why it cannot answer).
    fn judged_moves(&self) -> Vec<(Move, Verdict, MoveEffect)> {
        let Some(table) = self.table.loaded.as_ref().filter(|_| self.view.show_analysis) else {
            return Vec::new();
        };
        if self.looking_back().is_some() || self.outcome().is_some() {
            return Vec::new();
        }
        let Ok(verdicts) = table.verdicts(self.board()) else { return Vec::new() };
        MoveEffect::of_each(&verdicts)
            .filter(|(m, _, _)| m.from() == self.input.entry.selected)
            .collect()
    }

    /// The analysis marks for the position on the board: where the selected piece can go, or
    /// every placement, each judged by the table against the best move's result.
    pub fn analysis(&self) -> Marks {
        let mut marks = Marks::default();
        for (m, _, effect) in self.judged_moves() {
            let set = match effect {
                MoveEffect::Keeps => &mut marks.keeps,
                MoveEffect::LosesSooner => &mut marks.sooner,
                MoveEffect::GivesUpWin => &mut marks.holds,
                _ => &mut marks.loses,
            };
            *set = set.with(m.to());
        }
        marks
    }

    /// The marked moves with how far each is from the end, where the table knows it: `d2
    /// Tigers win in 20 (longest) · b4 in 12`, the longest defence named in a lost position.
    /// `None` where nothing is marked or no distance is known (the placement phase).
    pub fn analysis_line(&self) -> Option<String> {
        let side = self.board().side_to_move();
        let mut parts = Vec::new();
        let mut last = None;
        for (m, v, effect) in self.judged_moves() {
            let Some(value) = v.value else { continue };
            // After a move with the same result, its distance alone.
            let shown = match value {
                Value::Win(n) | Value::Loss(n) if last == Some(v.wdl) => format!("in {n}"),
                _ => v.describe(side),
            };
            let longest = effect == MoveEffect::Keeps && matches!(value, Value::Loss(_));
            parts.push(format!("{} {shown}{}", m.to(), if longest { " (longest)" } else { "" }));
            last = Some(v.wdl);
        }
        (!parts.is_empty()).then(|| parts.join(" · "))
    }

    /// Marks the sheep a tiger could jump, or stops marking them, and says which.
    pub(crate) fn toggle_threats(&mut self) {
        self.view.show_threats = !self.view.show_threats;
        self.message = if self.view.show_threats {
            let open = self.shown_board().capturable_sheep().len();
            format!("threat view on: {open} sheep open to a jump (v hides them)")
        } else {
            "threat view off".into()
        };
    }
}
