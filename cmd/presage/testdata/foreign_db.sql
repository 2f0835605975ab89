CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO accounts(name) VALUES ('mine');
