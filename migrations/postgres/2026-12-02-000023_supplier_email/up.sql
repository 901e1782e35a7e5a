-- Where a supplier's purchase orders are e-mailed (issue 33); empty when not known.
ALTER TABLE suppliers ADD COLUMN email TEXT NOT NULL DEFAULT '';
