mod docs;
mod flow;
mod shown;
