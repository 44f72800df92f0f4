-- Every coding of a coded row as its source gave it ([{ system, code, display }]): FHIR imports keep
-- SNOMED CT, ICD-10, RxNorm and LOINC codings instead of reading only the first one (issue 21).
-- A constant default: PostgreSQL adds the column without rewriting the tables.
ALTER TABLE "diagnoses" ADD COLUMN "codings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "codings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_results" ADD COLUMN "codings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "codings" jsonb DEFAULT '[]'::jsonb NOT NULL;
