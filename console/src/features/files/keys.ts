// The query keys of the import and export page: one import's progress (GET /api/imports/{id}) and its refused rows
// (GET /api/imports/{id}/errors). Pure.

export const importKeys = {
  all: ['imports'] as const,
  detail: (id: string) => [...importKeys.all, id] as const,
  errors: (id: string) => [...importKeys.detail(id), 'errors'] as const,
};
