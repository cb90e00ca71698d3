CREATE TABLE "category_collections" (
	"integration_id" integer NOT NULL,
	"pim_category_id" integer NOT NULL,
	"storefront_collection_id" text NOT NULL,
	"title" text NOT NULL,
	"handle" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "category_collections_integration_id_pim_category_id_pk" PRIMARY KEY("integration_id","pim_category_id")
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "missing_locales" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "category_collections" ADD CONSTRAINT "category_collections_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;