ALTER TABLE "crf_records" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "crf_records" ADD COLUMN "deleted_by" integer;--> statement-breakpoint
ALTER TABLE "crf_records" ADD COLUMN "deleted_by_name" text;--> statement-breakpoint
ALTER TABLE "crf_records" ADD COLUMN "delete_reason" text;--> statement-breakpoint
ALTER TABLE "crf_records" ADD CONSTRAINT "crf_records_deleted_by_users_user_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;