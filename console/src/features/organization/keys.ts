// The query key of the signed-in organization and its catalogue defaults (GET /api/organization): the organization
// page edits it, the product editor (a new product's currency) and the import form read it. Pure.

export const organizationKeys = { all: ['organization'] as const };
