ALTER TABLE "sandbox_products" ADD COLUMN "gift_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_products" ADD COLUMN "category_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "taxable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "requires_shipping" boolean DEFAULT true NOT NULL;