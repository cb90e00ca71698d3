export function Pagination({ page, totalPages, totalItems, onPage }: { page: number; totalPages: number; totalItems: number; onPage: (page: number) => void }) {
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="button secondary small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(totalPages, 1)} · {totalItems.toLocaleString()} in all
      </span>
      <button type="button" className="button secondary small" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
