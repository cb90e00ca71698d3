/** The Shopify Admin API version the adapter speaks and the sandbox answers. */
export const ADMIN_API_VERSION = '2026-10';
