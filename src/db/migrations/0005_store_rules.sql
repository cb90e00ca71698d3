CREATE TABLE "sandbox_idempotency_keys" (
	"store_id" integer NOT NULL,
	"key" text NOT NULL,
	"field" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_idempotency_keys_store_id_key_pk" PRIMARY KEY("store_id","key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_product_publications" (
	"product_id" bigint NOT NULL,
	"publication_id" bigint NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_product_publications_product_id_publication_id_pk" PRIMARY KEY("product_id","publication_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_publications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"name" text NOT NULL,
	"auto_publish" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "variant_throttle_limit" integer;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN "filename" text;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "inventory_policy" text DEFAULT 'DENY' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "tracked" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "unit_cost" text;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN "weight" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_idempotency_keys" ADD CONSTRAINT "sandbox_idempotency_keys_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_product_publications" ADD CONSTRAINT "sandbox_product_publications_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_product_publications" ADD CONSTRAINT "sandbox_product_publications_publication_id_sandbox_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."sandbox_publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_publications" ADD CONSTRAINT "sandbox_publications_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_publications_store_name_uq" ON "sandbox_publications" USING btree ("store_id","name");