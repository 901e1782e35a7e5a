mod docs;
