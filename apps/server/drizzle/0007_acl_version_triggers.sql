-- Any change of who holds which menus and functions bumps the ACL version, so cached
-- permissions in every server process are dropped at their next request.
INSERT INTO acl_version (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION acl_version_bump() RETURNS trigger AS $$
BEGIN
  UPDATE acl_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER acl_bump_roles AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
--> statement-breakpoint
CREATE TRIGGER acl_bump_role_users AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_users FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
--> statement-breakpoint
CREATE TRIGGER acl_bump_role_menus AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_menus FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
--> statement-breakpoint
CREATE TRIGGER acl_bump_role_functions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_functions FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
--> statement-breakpoint
CREATE TRIGGER acl_bump_menus AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON menus FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
--> statement-breakpoint
CREATE TRIGGER acl_bump_functions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON functions FOR EACH STATEMENT EXECUTE FUNCTION acl_version_bump();
