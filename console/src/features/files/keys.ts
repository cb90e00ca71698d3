// The query keys of the import and export page: one import's progress (GET /api/imports/{id}). Pure.

export const importKeys = {
  all: ['imports'] as const,
  detail: (id: string) => [...importKeys.all, id] as const,
};
