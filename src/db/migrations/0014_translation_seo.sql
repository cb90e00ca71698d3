ALTER TABLE "product_translations" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "product_translations" ADD COLUMN "seo_description" text;