CREATE TABLE "sandbox_collection_metafields" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"collection_id" bigint NOT NULL,
	"store_id" integer NOT NULL,
	"namespace" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_collection_products" (
	"collection_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_collection_products_collection_id_product_id_pk" PRIMARY KEY("collection_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_collection_publications" (
	"collection_id" bigint NOT NULL,
	"publication_id" bigint NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_collection_publications_collection_id_publication_id_pk" PRIMARY KEY("collection_id","publication_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_collections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"title" text NOT NULL,
	"handle" text NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"sort_order" text DEFAULT 'BEST_SELLING' NOT NULL,
	"template_suffix" text,
	"seo" jsonb DEFAULT '{"title":null,"description":null}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_shop_locales" (
	"store_id" integer NOT NULL,
	"locale" text NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_shop_locales_store_id_locale_pk" PRIMARY KEY("store_id","locale")
);
--> statement-breakpoint
CREATE TABLE "sandbox_translations" (
	"store_id" integer NOT NULL,
	"resource_id" text NOT NULL,
	"key" text NOT NULL,
	"locale" text NOT NULL,
	"value" text NOT NULL,
	"digest" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_translations_store_id_resource_id_locale_key_pk" PRIMARY KEY("store_id","resource_id","locale","key")
);
--> statement-breakpoint
ALTER TABLE "sandbox_collection_metafields" ADD CONSTRAINT "sandbox_collection_metafields_collection_id_sandbox_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."sandbox_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collection_metafields" ADD CONSTRAINT "sandbox_collection_metafields_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collection_products" ADD CONSTRAINT "sandbox_collection_products_collection_id_sandbox_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."sandbox_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collection_products" ADD CONSTRAINT "sandbox_collection_products_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collection_publications" ADD CONSTRAINT "sandbox_collection_publications_collection_id_sandbox_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."sandbox_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collection_publications" ADD CONSTRAINT "sandbox_collection_publications_publication_id_sandbox_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."sandbox_publications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_collections" ADD CONSTRAINT "sandbox_collections_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_shop_locales" ADD CONSTRAINT "sandbox_shop_locales_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_translations" ADD CONSTRAINT "sandbox_translations_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_collection_metafields_collection_key_uq" ON "sandbox_collection_metafields" USING btree ("collection_id","namespace","key");--> statement-breakpoint
CREATE INDEX "sandbox_collection_metafields_lookup_idx" ON "sandbox_collection_metafields" USING btree ("store_id","namespace","key","value");--> statement-breakpoint
CREATE INDEX "sandbox_collection_products_product_idx" ON "sandbox_collection_products" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_collections_store_handle_uq" ON "sandbox_collections" USING btree ("store_id","handle");--> statement-breakpoint
CREATE INDEX "sandbox_collections_store_id_idx" ON "sandbox_collections" USING btree ("store_id","id");