CREATE TABLE "pending_images" (
	"organization_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"url" text NOT NULL,
	"position" integer NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_images_product_id_url_pk" PRIMARY KEY("product_id","url")
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "images_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_images" ADD CONSTRAINT "pending_images_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_images" ADD CONSTRAINT "pending_images_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;