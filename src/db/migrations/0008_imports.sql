CREATE TABLE "import_errors" (
	"import_id" uuid NOT NULL,
	"id" serial NOT NULL,
	"line" integer NOT NULL,
	"sku" text,
	"reason" text NOT NULL,
	CONSTRAINT "import_errors_import_id_id_pk" PRIMARY KEY("import_id","id")
);
--> statement-breakpoint
CREATE TABLE "import_images" (
	"import_id" uuid NOT NULL,
	"id" serial NOT NULL,
	"product_id" integer NOT NULL,
	"url" text NOT NULL,
	"position" integer NOT NULL,
	"line" integer NOT NULL,
	"sku" text NOT NULL,
	CONSTRAINT "import_images_import_id_id_pk" PRIMARY KEY("import_id","id")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"format" text NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"rows_total" integer NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"checkpoint_line" integer DEFAULT 1 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "import_errors" ADD CONSTRAINT "import_errors_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_images" ADD CONSTRAINT "import_images_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_errors_line_idx" ON "import_errors" USING btree ("import_id","line");--> statement-breakpoint
CREATE INDEX "imports_org_created_idx" ON "imports" USING btree ("organization_id","created_at");