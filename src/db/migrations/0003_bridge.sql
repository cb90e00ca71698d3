
ALTER TABLE "product_mappings" ADD COLUMN "storefront_state" jsonb DEFAULT '{}'::jsonb NOT NULL;