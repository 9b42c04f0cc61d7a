-- representable(t, enc): whether t can be written in encoding enc (shared
-- by the tests that repeat their examples in databases of other encodings)
CREATE FUNCTION representable(t text, enc name) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  -- both directions: PostgreSQL's EUC_TW tables are not symmetric
  RETURN convert_from(convert_to(t, enc), enc) = t;
EXCEPTION WHEN untranslatable_character OR character_not_in_repertoire THEN
  RETURN false;
END $$;
