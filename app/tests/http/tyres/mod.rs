mod docs;
mod flow;
