ALTER TABLE "collection_sources" DROP CONSTRAINT "collection_sources_kind";--> statement-breakpoint
ALTER TABLE "collection_changes" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD COLUMN "message_id" bigint;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD COLUMN "source_id" integer;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD CONSTRAINT "collection_changes_message_id_hl7_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."hl7_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_changes" ADD CONSTRAINT "collection_changes_source_id_collection_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."collection_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_sources" ADD CONSTRAINT "collection_sources_kind" CHECK ("collection_sources"."kind" in ('postgresql', 'mysql', 'hl7', 'csv', 'fhir'));--> statement-breakpoint
UPDATE "collection_changes" c SET "source_id" = t."source_id" FROM "collection_templates" t WHERE t."id" = c."template_id";
