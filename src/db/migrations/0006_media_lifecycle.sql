-- This migration changed only the Shopify sandbox's tables (sandbox_media), which have their own migrations now
-- (src/sandbox/migrations): nothing is left for the production schema.
SELECT 1;