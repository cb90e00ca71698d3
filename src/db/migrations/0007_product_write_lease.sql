ALTER TABLE "product_mappings" ADD COLUMN "storefront_version" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "product_mappings" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "product_mappings" ADD COLUMN "lease_until" timestamp (3) with time zone;