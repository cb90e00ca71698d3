ALTER TABLE "sandbox_variants" ADD COLUMN "media_id" bigint;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD CONSTRAINT "sandbox_variants_media_id_sandbox_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."sandbox_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_variants_media_idx" ON "sandbox_variants" USING btree ("media_id");