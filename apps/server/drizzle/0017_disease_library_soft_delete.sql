DROP INDEX "disease_libraries_app_name";--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD COLUMN "deleted_by" integer;--> statement-breakpoint
ALTER TABLE "disease_libraries" ADD CONSTRAINT "disease_libraries_deleted_by_users_user_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disease_libraries_app_name" ON "disease_libraries" USING btree ("app_id","name") WHERE "disease_libraries"."deleted_at" is null;