// Moving about the variants grid from the keyboard, as in a spreadsheet: up and down (and Enter, Shift+Enter) go to the
// same column of the row above or below; left and right leave a cell only from the edge of its text, so that they still
// move the caret inside it. Pure: the grid's cells know their row and column, this says where a key goes.

export interface GridCell {
  row: number;
  col: number;
}

export interface GridKey {
  key: string;
  shiftKey?: boolean;
  /** The caret at the start / the end of the cell's text (true for a cell without text, e.g. a checkbox). */
  atStart: boolean;
  atEnd: boolean;
}

/** The cell a key moves to, or null when it stays (the key is the cell's own, or the grid ends there). */
export function gridMove(at: GridCell, key: GridKey, size: { rows: number; cols: number }): GridCell | null {
  const to = (row: number, col: number) => (row >= 0 && row < size.rows && col >= 0 && col < size.cols ? { row, col } : null);
  switch (key.key) {
    case 'ArrowUp':
      return to(at.row - 1, at.col);
    case 'ArrowDown':
      return to(at.row + 1, at.col);
    case 'Enter':
      return to(at.row + (key.shiftKey ? -1 : 1), at.col);
    case 'ArrowLeft':
      return key.atStart ? to(at.row, at.col - 1) : null;
    case 'ArrowRight':
      return key.atEnd ? to(at.row, at.col + 1) : null;
    default:
      return null;
  }
}

/** A cell's place as its element carries it (`data-cell="row:col"`). */
export const cellName = (cell: GridCell) => `${cell.row}:${cell.col}`;
export function cellOf(name: string | undefined): GridCell | null {
  const m = /^(\d+):(\d+)$/.exec(name ?? '');
  return m ? { row: Number(m[1]), col: Number(m[2]) } : null;
}
